"use client";

import type { RunLog } from "@/lib/client/run-log";
import type { ResultEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { CardFrame } from "../card-frame";
import { JsonBlock } from "./json-block";
import { StatusChip } from "./status-chip";

/**
 * A result shows inside its call's card, and a malformed call's failure inside its error's
 * card (`callId` is the error's id). Only a result with neither in the log gets a card of its
 * own; it links (hover, click) to whatever its `callId` names.
 */
export function ResultCard({ event }: { event: ResultEvent }) {
  const shownElsewhere = usePlayground((state) => isShownElsewhere(state.log, event));
  if (shownElsewhere) return null;
  const { payload } = event;
  return (
    <CardFrame
      event={event}
      linkId={event.callId}
      className="border border-danger/30 bg-danger/5 px-3 py-1.5"
    >
      <div className="flex items-center gap-2 text-xs">
        <span className="font-mono text-[13px] text-fg">{payload.tool}</span>
        <span className="min-w-0 flex-1 truncate text-fg-muted" data-testid="call-outcome">
          {payload.outcome}
        </span>
        <StatusChip status={payload.status} />
      </div>
      {payload.content !== undefined && payload.content !== "" ? (
        <div className="mt-1.5">
          <JsonBlock value={payload.content} memoryKey={`${event.id}:content`} label="Result" />
        </div>
      ) : null}
    </CardFrame>
  );
}

/** A result the timeline shows in another card: its call's, or its malformed call's error's. */
export function isShownElsewhere(log: RunLog, result: ResultEvent): boolean {
  return log.callOf(result.callId) !== undefined || log.get(result.callId)?.type === "error";
}
