import {
  type ActionSpec,
  type CallEvent,
  type Dialect,
  encodeTurn,
  type ProtocolEvent,
} from "../protocol";

/**
 * Builders for the events a scripted turn is made of. Only `encodeTurn` reads them, so ids,
 * spans and timestamps are placeholders.
 */
const BASE = { id: "", timestamp: 0, turn: 0, span: { start: 0, end: 0 } };

export function think(content: string): ProtocolEvent {
  return { ...BASE, type: "think", content };
}

export function respond(content: string): ProtocolEvent {
  return { ...BASE, type: "respond", content };
}

export function end(): ProtocolEvent {
  return { id: "", timestamp: 0, type: "end" };
}

export function call(
  id: string,
  name: string,
  args: Record<string, unknown>,
  action?: ActionSpec,
): CallEvent {
  const event: CallEvent = { ...BASE, type: "call", call: { id, name, args } };
  if (action !== undefined) event.action = action;
  return event;
}

/** Wire text for a turn: the events, then the end marker when the turn has no calls. */
export function encodeScripted(dialect: Dialect, events: readonly ProtocolEvent[]): string {
  const hasCalls = events.some((event) => event.type === "call");
  return encodeTurn(dialect, hasCalls ? events : [...events, end()]);
}

/**
 * Text quoted from a tool result must not close or open a block: `<` becomes `‹` in the tag
 * dialects and `§` gets a zero-width space after it in the delimiter dialect.
 */
export function neutralise(dialect: Dialect, text: string): string {
  return dialect === "delimiter" ? text.replaceAll("§", "§\u200b") : text.replaceAll("<", "‹");
}
