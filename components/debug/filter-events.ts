import type { EventType, ProtocolEvent } from "@/lib/protocol";

/** `null` shows every type; otherwise only the listed ones. */
export type EventFilter = readonly EventType[] | null;

export function filterEvents(
  events: readonly ProtocolEvent[],
  filter: EventFilter,
): readonly ProtocolEvent[] {
  if (filter === null) return events;
  const shown = new Set(filter);
  return events.filter((event) => shown.has(event.type));
}

/**
 * Clicking a chip: from "all", show only that type; otherwise add or remove it. Removing the
 * last one goes back to "all", so the list is never empty by accident.
 */
export function toggleType(filter: EventFilter, type: EventType): EventType[] | null {
  if (filter === null) return [type];
  const next = filter.includes(type) ? filter.filter((item) => item !== type) : [...filter, type];
  return next.length === 0 ? null : next;
}

export function countByType(events: readonly ProtocolEvent[]): Map<EventType, number> {
  const counts = new Map<EventType, number>();
  for (const event of events) counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
  return counts;
}
