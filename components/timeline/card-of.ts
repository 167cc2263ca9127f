import type { RunLog } from "@/lib/client/run-log";

/**
 * The timeline card that shows an event: its own, its call's for a result shown in the call's
 * card, or its top-level call's for an event of a sub-agent run (nested in that card).
 */
export function cardIdOf(log: RunLog, id: string): string | undefined {
  let event = log.get(id);
  // Sub-agents nest; the depth bound only guards against a malformed cycle.
  for (let depth = 0; event !== undefined && depth < 64; depth++) {
    if (event.parent !== undefined) {
      event = log.callOf(event.parent) ?? log.get(event.parent);
      continue;
    }
    if (event.type === "result") return log.callOf(event.callId)?.id ?? event.id;
    return event.id;
  }
  return undefined;
}
