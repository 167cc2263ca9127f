import { type RunLog, turnOf } from "@/lib/client/run-log";

/** The user message a model turn answers: its number in the conversation and its text. */
export interface TurnUser {
  index: number;
  content: string;
}

export interface TurnUsers {
  log: RunLog;
  scanned: number;
  current: TurnUser | null;
  count: number;
  turns: Map<number, TurnUser>;
}

/**
 * Which user message each turn answers, caught up with the log. The log only appends, so
 * each event is looked at once (a long conversation stays linear); a new log starts over.
 */
export function updateTurnUsers(state: TurnUsers | null, log: RunLog): TurnUsers {
  const next =
    state === null || state.log !== log
      ? { log, scanned: 0, current: null, count: 0, turns: new Map<number, TurnUser>() }
      : state;
  for (; next.scanned < log.events.length; next.scanned++) {
    const event = log.events[next.scanned];
    if (event === undefined) continue;
    if (event.type === "user" && event.parent === undefined) {
      next.current = { index: ++next.count, content: event.content };
      continue;
    }
    const turn = turnOf(event);
    if (turn !== undefined && next.current !== null && !next.turns.has(turn))
      next.turns.set(turn, next.current);
  }
  return next;
}
