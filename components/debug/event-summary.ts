import type { EventOf, EventType, ProtocolEvent } from "@/lib/protocol";

type Summarise<T extends EventType> = (event: EventOf<T>) => string;

const MAX = 80;
const clip = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX ? `${line.slice(0, MAX)}…` : line;
};

/**
 * The "name" column of the Events table: what tells one event of a type from another. A
 * `Record` over `EventType`, so a new event type fails to compile until it has one.
 */
const SUMMARIES: { [T in EventType]: Summarise<T> } = {
  user: (event) => clip(event.content),
  think: (event) => clip(event.content),
  call: (event) => event.call.name,
  execute: () => "batch",
  result: (event) => `${event.payload.tool} · ${event.payload.status}`,
  respond: (event) => clip(event.content),
  end: () => "",
  metric: (event) => `${event.step.input} → ${event.step.output} tokens`,
  error: (event) => event.code,
  interrupt: (event) => event.reason,
};

export function eventSummary(event: ProtocolEvent): string {
  return (SUMMARIES[event.type] as Summarise<EventType>)(event as never);
}

/** Time since the log's first event: "+0.31 s", "+12.4 s", "+2:05". */
export function formatOffset(ms: number): string {
  const safe = Number.isFinite(ms) && ms > 0 ? ms : 0;
  if (safe < 10_000) return `+${(safe / 1000).toFixed(2)} s`;
  if (safe < 60_000) return `+${(safe / 1000).toFixed(1)} s`;
  const seconds = Math.floor(safe / 1000);
  return `+${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}
