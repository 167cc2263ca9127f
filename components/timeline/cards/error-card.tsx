"use client";

import type { ErrorEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { CardFrame } from "../card-frame";
import { StatusChip } from "./status-chip";

/**
 * A parser or runtime error: its code, its message, the offending text when there is some,
 * and a way to its place in the raw wire text. A malformed call's failure result (its
 * `callId` is this error's id) folds in as one line: the model was sent this message.
 */
export function ErrorCard({ event }: { event: ErrorEvent }) {
  const failure = usePlayground((state) => state.log.resultOf(event.id));
  const showIds = usePlayground((state) => state.showIds);
  const ids = showIds ? [event.tool, event.callId].filter(Boolean) : event.tool ? [event.tool] : [];
  const showInRaw = () => {
    const state = usePlayground.getState();
    state.select(event.id, event.turn ?? null);
    state.setUi({ debugTab: "raw", debugOpen: true });
  };
  return (
    <CardFrame
      event={event}
      className="border border-danger/40 border-l-2 border-l-danger bg-danger/5 px-3 py-2"
    >
      <div className="flex items-start gap-2">
        <span className="mt-px shrink-0 rounded bg-danger/15 px-1.5 py-px font-mono text-[11px] leading-4 text-danger">
          {event.code}
        </span>
        <p className="min-w-0 flex-1 text-[13px] text-fg">{event.message}</p>
      </div>
      {event.raw !== undefined && event.raw.trim() !== "" ? (
        <pre className="mt-1.5 max-h-24 overflow-auto whitespace-pre-wrap break-all rounded bg-wire-bg px-2 py-1 font-mono text-[11px] text-fg-muted">
          {event.raw.trim()}
        </pre>
      ) : null}
      {failure !== undefined ? (
        <p
          className="mt-1.5 flex items-center gap-2 text-xs text-fg-muted"
          data-testid="folded-failure"
          data-result-id={failure.id}
        >
          <StatusChip status={failure.payload.status} />
          <span>{failure.payload.outcome}: this message went back to the model as its result.</span>
        </p>
      ) : null}
      {/* Its own row at the bottom: the card's copy buttons float over its top-right corner. */}
      <div className="mt-1.5 flex items-center justify-between gap-2">
        <p className="min-w-0 truncate font-mono text-[11px] text-fg-subtle">{ids.join(" · ")}</p>
        <button
          type="button"
          onClick={(click) => {
            click.stopPropagation();
            showInRaw();
          }}
          className="shrink-0 rounded border border-border px-1.5 py-px text-[11px] text-fg-muted hover:bg-surface-2 hover:text-fg"
        >
          Show in raw
        </button>
      </div>
    </CardFrame>
  );
}
