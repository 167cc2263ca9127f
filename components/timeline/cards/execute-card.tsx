"use client";

import type { RunLog } from "@/lib/client/run-log";
import type { ExecuteEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { CardFrame } from "../card-frame";

/** The batch boundary: a thin divider saying how many calls it sent off. */
export function ExecuteCard({ event }: { event: ExecuteEvent }) {
  const calls = usePlayground((state) => batchSize(state.log, event));
  return (
    <CardFrame event={event} className="flex items-center gap-2 py-0.5">
      <span className="h-px flex-1 bg-border" />
      <span className="font-mono text-[11px] text-fg-subtle">
        execute · {calls} {calls === 1 ? "call" : "calls"}
      </span>
      <span className="h-px flex-1 bg-border" />
    </CardFrame>
  );
}

/** The calls of this turn between the previous execute boundary and this one. */
export function batchSize(log: RunLog, execute: ExecuteEvent): number {
  const ids = log.turns.get(execute.turn)?.events ?? [];
  let count = 0;
  for (const id of ids) {
    const event = log.get(id);
    if (event === undefined || event.parent !== execute.parent) continue;
    if (event.type === "execute" && event.span.end <= execute.span.start) count = 0;
    else if (event.type === "call" && event.span.end <= execute.span.end) count++;
  }
  return count;
}
