"use client";

import type { ResultEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { CardFrame } from "../card-frame";
import { JsonBlock } from "./json-block";
import { StatusChip } from "./status-chip";

/**
 * A result shows inside its call's card. Only a result without a call in the log gets a card
 * of its own: the runtime's protocol failure for a block that never became a call.
 */
export function ResultCard({ event }: { event: ResultEvent }) {
  const hasCall = usePlayground((state) => state.log.callOf(event.callId) !== undefined);
  if (hasCall) return null;
  const { payload } = event;
  return (
    <CardFrame event={event} className="border border-danger/30 bg-danger/5 px-3 py-1.5">
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
