import { type RunLog, spanOf, turnOf } from "@/lib/client/run-log";
import type { ProtocolEvent, Span } from "@/lib/protocol";

export interface LinkedSpan {
  turn: number;
  span: Span;
}

/**
 * Where an event sits in the raw text; a result points at its call's place, or, for a
 * malformed call's failure, at its error's (the result's `callId` is the error's id).
 */
export function linkedSpan(log: RunLog, id: string | null): LinkedSpan | undefined {
  if (id === null) return undefined;
  let event = log.get(id);
  if (event?.type === "result") event = log.callOf(event.callId) ?? log.get(event.callId) ?? event;
  if (event === undefined) return undefined;
  const turn = turnOf(event);
  const span = spanOf(event);
  return turn === undefined || span === undefined ? undefined : { turn, span };
}

/** Characters scanned past the start of a selection that begins outside every span. */
const SCAN_LIMIT = 512;

/**
 * The event that owns a picked stretch of raw text: the innermost event at its first
 * character, or, when the selection starts between blocks, at the first character after
 * that belongs to one.
 */
export function eventForPick(
  log: RunLog,
  turn: number,
  pick: { start: number; end: number },
): ProtocolEvent | undefined {
  const last = Math.min(Math.max(pick.end, pick.start + 1), pick.start + SCAN_LIMIT);
  for (let offset = pick.start; offset < last; offset++) {
    const event = log.eventAt(turn, offset);
    if (event !== undefined) return event;
  }
  return undefined;
}
