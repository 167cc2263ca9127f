import type { ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";

/** One model turn as compared: its raw wire text and its events (pieces merged, in order). */
export interface CompareTurn {
  /** The turn number (`null` for events outside any turn, e.g. a provider error before it). */
  turn: number | null;
  raw: string;
  events: ProtocolEvent[];
}

/** A user message and the model turns that answered it (the first has no user message). */
export interface Exchange {
  user?: string;
  turns: CompareTurn[];
}

/**
 * Groups a transcript's records (in `seq` order) into exchanges and turns. Chunks and parsed
 * events go by their `turn`; a result goes to its call's turn; an event without a turn (an
 * error, an interrupt) to the exchange's last turn. A sub-agent's events (with `parent`) are
 * left out: its call's result holds its answer. Metric events are left out too (timing always
 * differs; the summary table has them). Linear in the records.
 */
export function exchangesOf(records: Iterable<TranscriptRecord>): Exchange[] {
  const exchanges: Exchange[] = [];
  let current: Exchange | undefined;
  let turns = new Map<number, CompareTurn>();
  const callTurns = new Map<string, number>();
  let pieces = new Map<string, ProtocolEvent>();
  const exchange = (): Exchange => {
    if (current === undefined) {
      current = { turns: [] };
      exchanges.push(current);
    }
    return current;
  };
  const turnOf = (turn: number | undefined): CompareTurn => {
    const into = exchange();
    if (turn === undefined) {
      const last = into.turns.at(-1);
      if (last !== undefined) return last;
    }
    const key = turn ?? -1;
    let found = turns.get(key);
    if (found === undefined) {
      found = { turn: turn ?? null, raw: "", events: [] };
      turns.set(key, found);
      into.turns.push(found);
    }
    return found;
  };
  for (const record of records) {
    if (record.kind === "chunk") {
      turnOf(record.turn).raw += record.text;
      continue;
    }
    if (record.kind !== "event") continue;
    const { event } = record;
    if (event.parent !== undefined || event.type === "metric") continue;
    if (event.type === "user") {
      current = { user: event.content, turns: [] };
      exchanges.push(current);
      turns = new Map();
      pieces = new Map();
      continue;
    }
    if (event.type === "think" || event.type === "respond") {
      const open = pieces.get(event.id);
      if (open !== undefined && open.type === event.type) {
        open.content += event.content;
        continue;
      }
      const copy = { ...event };
      pieces.set(event.id, copy);
      turnOf(event.turn).events.push(copy);
      continue;
    }
    if (event.type === "call") callTurns.set(event.call.id, event.turn);
    const turn =
      event.type === "result"
        ? (event.turn ?? callTurns.get(event.callId))
        : event.type === "interrupt"
          ? undefined
          : event.turn;
    turnOf(turn).events.push(event);
  }
  return exchanges;
}
