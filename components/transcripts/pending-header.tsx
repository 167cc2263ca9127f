"use client";

import { formatReplayTime } from "@/components/replay/speeds";
import type { ProtocolEvent } from "@/lib/protocol";
import { titleFromMessage } from "@/lib/store/meta";
import { usePlayground } from "@/state/playground-store";
import { DownloadIcon, ForkIcon, PlayIcon, StepBackIcon, StepForwardIcon } from "./icons";

/**
 * The transcript header and replay bar, inert, while the first run of a conversation is on
 * and its transcript is not read yet: the same rows at the same heights, so nothing jumps
 * when the real ones take their place. Titled as the server titles it, from the message that
 * started it.
 */
export function PendingHeader() {
  const title = usePlayground((state) => pendingTitle(state.log.events));
  return (
    <div
      className="shrink-0 border-b border-border bg-surface"
      data-testid="transcript-header"
      data-pending="true"
    >
      <div className="flex h-9 min-w-0 items-center gap-2 px-3 text-xs">
        <p className="truncate text-[13px] font-medium text-fg-muted" title={title}>
          {title ?? "New conversation"}
        </p>
        {/* Disabled buttons, as the real header's are while a run goes (dimmed text of a
            control that is disabled is no contrast failure; dimmed plain text was). */}
        <span className="ml-auto flex shrink-0 items-center gap-1">
          <button type="button" disabled className={ACTION}>
            Re-run
          </button>
          <button type="button" disabled className={ACTION}>
            <ForkIcon />
            Fork…
          </button>
          <button type="button" disabled className={ACTION}>
            <DownloadIcon />
            Export
          </button>
        </span>
      </div>
      <div className="flex h-9 items-center gap-1.5 px-3">
        <button type="button" disabled aria-label="Step back" className={CONTROL}>
          <StepBackIcon />
        </button>
        <button type="button" disabled aria-label="Play" className={CONTROL}>
          <PlayIcon />
        </button>
        <button type="button" disabled aria-label="Step forward" className={CONTROL}>
          <StepForwardIcon />
        </button>
        <span className="h-6 w-[4.5rem] shrink-0 rounded border border-border opacity-40" />
        <span className="relative h-6 min-w-24 flex-1 opacity-40">
          <span className="absolute inset-x-0 top-1/2 h-1 -translate-y-1/2 rounded-full bg-border" />
        </span>
        <span className="shrink-0 font-mono text-[11px] text-fg-subtle tabular-nums">
          {formatReplayTime(0)} / {formatReplayTime(0)}
        </span>
      </div>
    </div>
  );
}

const ACTION =
  "inline-flex items-center gap-1 rounded px-2 py-1 text-xs text-fg-muted disabled:opacity-40";
const CONTROL =
  "inline-flex size-6 shrink-0 items-center justify-center rounded text-fg-muted disabled:opacity-40";

/** The title of the log's first user message (the first event, as a run streams it). */
function pendingTitle(events: readonly ProtocolEvent[]): string | undefined {
  const user = events.find((event) => event.type === "user" && event.parent === undefined);
  return user?.type === "user" ? titleFromMessage(user.content) : undefined;
}
