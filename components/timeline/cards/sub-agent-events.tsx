"use client";

import { usePlayground } from "@/state/playground-store";
import { EventCard } from "../event-card";
import { isShownElsewhere } from "./result-card";

/**
 * A sub-agent's own run under the action that started it, on an indented rail. Recursive:
 * a sub-agent's agent action nests its run the same way.
 */
export function SubAgentEvents({ callId }: { callId: string }) {
  // Most calls have no sub-agent: they skip the re-render that every new record would cause.
  usePlayground((state) => (state.log.childrenOf(callId).length === 0 ? 0 : state.version));
  const log = usePlayground((state) => state.log);
  const children = log
    .childrenOf(callId)
    .filter((child) => child.type !== "result" || !isShownElsewhere(log, child));
  if (children.length === 0) return null;
  return (
    <div className="flex flex-col gap-1.5 border-l-2 border-info/30 pl-3" data-testid="sub-agent">
      <p className="text-[11px] uppercase tracking-wide text-fg-subtle">Sub-agent run</p>
      {children.map((child) => (
        <EventCard key={child.id} event={child} />
      ))}
    </div>
  );
}
