import type { ProtocolEvent } from "./events";

/**
 * Folds think/respond pieces that share an id into one event each (contents
 * concatenated, spans joined), keeping the order in which each id first appeared.
 * The persisted form of a turn (docs/events.md). Inputs are not mutated.
 */
export function mergePieces(events: readonly ProtocolEvent[]): ProtocolEvent[] {
  const merged: ProtocolEvent[] = [];
  const open = new Map<string, number>();
  for (const event of events) {
    if (event.type !== "think" && event.type !== "respond") {
      merged.push(event);
      continue;
    }
    const at = open.get(event.id);
    const into = at === undefined ? undefined : merged[at];
    if (into === undefined || into.type !== event.type) {
      open.set(event.id, merged.length);
      merged.push({ ...event, span: { ...event.span } });
      continue;
    }
    into.content += event.content;
    into.span.start = Math.min(into.span.start, event.span.start);
    into.span.end = Math.max(into.span.end, event.span.end);
  }
  return merged;
}
