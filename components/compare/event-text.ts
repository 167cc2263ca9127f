import type { EventOf, EventType, ProtocolEvent } from "@/lib/protocol";

type Describe<T extends EventType> = (event: EventOf<T>) => string;

const MAX = 240;
const clip = (text: string) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > MAX ? `${line.slice(0, MAX)}…` : line;
};
const json = (value: unknown) => {
  if (typeof value === "string") return clip(value);
  try {
    return clip(JSON.stringify(value) ?? "");
  } catch {
    return "(not JSON)";
  }
};

/** One line per event for the compare view: what a difference would be in. */
const DESCRIBE: { [T in EventType]: Describe<T> } = {
  user: (event) => clip(event.content),
  think: (event) => clip(event.content),
  call: (event) => `${event.call.name} ${json(event.call.args)}`,
  execute: () => "run the batch",
  result: (event) =>
    `${event.payload.tool} · ${event.payload.status} · ${json(event.payload.content)}`,
  respond: (event) => clip(event.content),
  end: () => "",
  metric: (event) => `${event.step.input} → ${event.step.output} tokens`,
  error: (event) => `${event.code}: ${clip(event.message)}`,
  interrupt: (event) => event.reason,
};

export function describeEvent(event: ProtocolEvent): string {
  return (DESCRIBE[event.type] as Describe<EventType>)(event as never);
}
