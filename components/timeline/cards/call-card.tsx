"use client";

import type { CallEvent } from "@/lib/protocol";
import { EDITED_OUTCOME } from "@/lib/transcripts/fork";
import { usePlayground } from "@/state/playground-store";
import { CardFrame } from "../card-frame";
import { useRemembered } from "../card-memory";
import { Disclosure } from "../disclosure";
import { formatDuration } from "../format";
import { ActionChips } from "./action-chips";
import { CallResult } from "./call-result";
import { JsonBlock } from "./json-block";
import { type CallStatus, StatusChip } from "./status-chip";
import { SubAgentEvents } from "./sub-agent-events";

/**
 * One card for a call and its result: the tool, its arguments, the status as it runs, and
 * what came back. An `agent` action's own run nests below it.
 */
export function CallCard({ event }: { event: CallEvent }) {
  const callId = event.call.id;
  const result = usePlayground((state) => state.log.resultOf(callId));
  const running = usePlayground(
    (state) => state.status === "running" || state.status === "stopping",
  );
  // The model's own ids (`id="files"`, which `depends_on` names) always show; generated ones
  // (the event's id) only with "show ids".
  const showId = usePlayground((state) => state.showIds) || callId !== event.id;
  const [chosen, choose] = useRemembered(`${event.id}:open`);
  const open = chosen ?? true;
  const status: CallStatus = result?.payload.status ?? (running ? "running" : "no result");

  return (
    <CardFrame
      event={event}
      className={`border bg-surface ${status === "failure" ? "border-danger/40" : "border-border"}`}
    >
      <Disclosure
        open={open}
        onToggle={choose}
        label={`call ${event.call.name}`}
        summary={
          <>
            <span className="font-mono text-[13px] font-medium text-fg">{event.call.name}</span>
            {event.action === undefined && showId ? (
              <span className="min-w-0 truncate font-mono text-[11px] text-fg-subtle">
                {callId}
              </span>
            ) : null}
            <span className="ml-auto flex shrink-0 items-center gap-2">
              {result === undefined ? null : result.payload.outcome === EDITED_OUTCOME ? (
                <span
                  className="rounded border border-info/40 px-1.5 py-px font-mono text-[11px] leading-4 text-info"
                  title="This result was written by hand in a fork; the call did not run"
                  data-testid="mocked"
                >
                  mocked
                </span>
              ) : (
                <span className="font-mono text-[11px] text-fg-subtle">
                  {formatDuration(result.payload.durationMs)}
                </span>
              )}
              <StatusChip status={status} />
            </span>
          </>
        }
      >
        <div className="flex flex-col gap-2 px-3 pb-2.5">
          {event.action !== undefined ? (
            <ActionChips action={event.action} id={showId ? callId : undefined} />
          ) : null}
          <JsonBlock value={event.call.args} memoryKey={`${event.id}:args`} label="Arguments" />
          {result !== undefined ? <CallResult result={result} /> : null}
          <SubAgentEvents callId={callId} />
        </div>
      </Disclosure>
    </CardFrame>
  );
}
