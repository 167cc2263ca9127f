import type { DialectDefinition } from "../protocol/definition";
import type { Dialect, ProtocolEvent } from "../protocol/events";
import { createParser } from "../protocol/parser";
import type { TranscriptRecord } from "../protocol/records";
import type { Parser } from "../protocol/scanner";
import { diffTurn, type ReplayDiff } from "./diff";
import { isParserEvent, parserTurn } from "./parser-events";
import { runEpochs, runKeys, runStarts } from "./timeline";

export interface ReplayResult {
  /** The records a live run would have produced with the current parser, in order. */
  records: TranscriptRecord[];
  /** Where the current parser disagrees with the recorded events, by turn. */
  diffs: ReplayDiff[];
  /**
   * Where the parser clock of the run the records end with started (ms since the epoch; 0:
   * unknown): what `continues.epoch` takes when that run goes on in the next records.
   */
  epoch: number;
}

export interface ReplayOptions {
  /**
   * The records begin with more of a run replayed before them, from a turn's start (a run
   * longer than a page, replayed a few turns at a time): its stored id, and when it started
   * (`runEpochs` of its first part), for its parser clock.
   */
  continues?: { runId: string; epoch: number };
}

/** What the recorded parser events tell about a turn: how its parser named ids, whose it was. */
interface TurnPlan {
  idPrefix?: string;
  parent?: string;
  lastChunk: number;
}

interface LiveTurn {
  parser: Parser;
  parent: string | undefined;
  /** The execute boundary passed: nothing more of this turn is shown (docs/dialects/xml.md). */
  boundary: boolean;
  /** Nothing more is fed: the boundary, or an `end`; `end()` is then never called. */
  stopped: boolean;
}

/**
 * Replays a transcript through the current parser (pure). Each turn's recorded raw chunks are
 * fed, in order, to a fresh parser for that turn, exactly as the agent loop does: events after
 * the execute boundary are dropped, feeding stops at the boundary or an `end`, and `end()`
 * flushes a turn at the point the loop did (just before the turn's `metric`; never, for a turn
 * cut short by a crash). Recorded parser events are replaced by the re-parsed ones, placed
 * right after the chunk that produced them; everything the runtime wrote (user, result,
 * metric, runtime errors, interrupt, requests) stays where it was recorded.
 */
export function replayRecords(
  dialect: Dialect | DialectDefinition,
  records: readonly TranscriptRecord[],
  options: ReplayOptions = {},
): ReplayResult {
  const plans = planTurns(records);
  const flushAt = flushPositions(records, plans);
  const interruptedTurns = interrupted(records);
  const clocks = runClocks(records, options.continues);
  const out: TranscriptRecord[] = [];
  const recorded = new Map<number, ProtocolEvent[]>();
  const reparsed = new Map<number, ProtocolEvent[]>();
  const live = new Map<number, LiveTurn>();
  // The parser's clock: the recorded time of what is being fed (timestamps are not compared).
  // Without stored run ids, a run's start is its user message's time, or the part before's.
  let runStart = options.continues?.epoch ?? 0;
  let now = 0;

  const turnState = (turn: number): LiveTurn => {
    let state = live.get(turn);
    if (state === undefined) {
      const plan = plans.get(turn);
      const options = { turn, clock: () => now };
      const parser = createParser(
        dialect,
        plan?.idPrefix === undefined ? options : { ...options, idPrefix: plan.idPrefix },
      );
      state = { parser, parent: plan?.parent, boundary: false, stopped: false };
      live.set(turn, state);
    }
    return state;
  };

  const take = (turn: number, state: LiveTurn, events: readonly ProtocolEvent[]) => {
    for (const event of events) {
      if (state.boundary) return;
      const stamped = state.parent === undefined ? event : { ...event, parent: state.parent };
      out.push({ kind: "event", event: stamped });
      append(reparsed, turn, stamped);
      if (event.type === "execute") {
        state.boundary = true;
        state.stopped = true;
      } else if (event.type === "end") {
        state.stopped = true;
      }
    }
  };

  records.forEach((record, index) => {
    for (const turn of flushAt.get(index) ?? []) {
      const state = live.get(turn);
      if (state === undefined || state.stopped) continue;
      if (record.kind === "event") now = record.event.timestamp;
      state.stopped = true;
      // As the agent loop does: a block the user cut off ends quietly, only the interrupt shows.
      const ended = state.parser.end();
      take(
        turn,
        state,
        interruptedTurns.has(turn) && !(recorded.get(turn) ?? []).some(isUnclosedBlock)
          ? ended.filter((event) => !isUnclosedBlock(event))
          : ended,
      );
    }
    switch (record.kind) {
      case "request":
        out.push(record);
        return;
      case "chunk": {
        out.push(record);
        now = (clocks.get(index) ?? runStart) + record.t;
        const state = turnState(record.turn);
        if (!state.stopped) take(record.turn, state, state.parser.feed(record.text));
        return;
      }
      case "event": {
        const { event } = record;
        if (event.type === "user" && event.parent === undefined) runStart = event.timestamp;
        if (isParserEvent(event)) append(recorded, parserTurn(event), event);
        else out.push(record);
        return;
      }
    }
  });

  const turns = [...new Set([...recorded.keys(), ...reparsed.keys()])].sort((a, b) => a - b);
  const diffs = turns.flatMap((turn) =>
    diffTurn(turn, recorded.get(turn) ?? [], reparsed.get(turn) ?? []),
  );
  return { records: out, diffs, epoch: lastClock(records, clocks, runStart) };
}

/** The parser clock's start of the run of the last stored record. */
function lastClock(
  records: readonly TranscriptRecord[],
  clocks: ReadonlyMap<number, number>,
  runStart: number,
): number {
  if (clocks.size === 0) return runStart;
  for (let index = records.length - 1; index >= 0; index--) {
    const clock = clocks.get(index);
    if (clock !== undefined) return clock;
  }
  return runStart;
}

/**
 * Where the parser's clock starts for each stored record (by index): its run's start
 * (`runEpochs`: its user message, else what its own events tell; 0 when they tell nothing), so
 * a run planned apart from the runs before it (`ReplayPlanner`) gets the same times. Records
 * without a stored `runId` are not in it: they take the last user message's time.
 */
function runClocks(
  records: readonly TranscriptRecord[],
  continues: ReplayOptions["continues"],
): Map<number, number> {
  const clocks = new Map<number, number>();
  const stored = records as readonly (TranscriptRecord & { runId?: string })[];
  if (!stored.some((record) => record.runId !== undefined)) return clocks;
  const starts = runStarts(stored);
  const keys = runKeys(stored, starts);
  const epochs = runEpochs(stored, keys, starts);
  // The run going on keeps the start its first part had (its message is in that part).
  if (continues !== undefined) epochs.set(`0:${continues.runId}`, continues.epoch);
  stored.forEach((record, index) => {
    if (record.runId !== undefined) clocks.set(index, epochs.get(keys[index] as string) ?? 0);
  });
  return clocks;
}

/**
 * The model turns an `interrupt` may have cut short: the last turn that streamed before each
 * interrupt (its metric comes first). Replay drops the `unclosed_block` the end of such a turn
 * finds only where the recording has none (the loop dropped it), so a fault the model made
 * itself before a later stop still shows.
 */
function interrupted(records: readonly TranscriptRecord[]): Set<number> {
  const turns = new Set<number>();
  let streaming: number | undefined;
  for (const record of records) {
    if (record.kind === "chunk") streaming = record.turn;
    else if (record.kind === "event" && record.event.type === "interrupt") {
      if (streaming !== undefined) turns.add(streaming);
      streaming = undefined;
    }
  }
  return turns;
}

const isUnclosedBlock = (event: ProtocolEvent) =>
  event.type === "error" && event.code === "unclosed_block";

function planTurns(records: readonly TranscriptRecord[]): Map<number, TurnPlan> {
  const plans = new Map<number, TurnPlan>();
  const plan = (turn: number) => {
    let found = plans.get(turn);
    if (found === undefined) {
      found = { lastChunk: -1 };
      plans.set(turn, found);
    }
    return found;
  };
  records.forEach((record, index) => {
    if (record.kind === "chunk") plan(record.turn).lastChunk = index;
    if (record.kind !== "event" || !isParserEvent(record.event)) return;
    const turnPlan = plan(parserTurn(record.event));
    if (turnPlan.idPrefix !== undefined) return;
    // Parser ids are `<prefix><counter>`; the same prefix gives the same ids again.
    turnPlan.idPrefix = record.event.id.replace(/\d+$/, "");
    if (record.event.parent !== undefined) turnPlan.parent = record.event.parent;
  });
  return plans;
}

/**
 * Where the loop called `end()` for each turn: after the turn's last chunk, at the first
 * `metric` of the same agent (the loop flushes, then measures, in one synchronous step).
 */
function flushPositions(
  records: readonly TranscriptRecord[],
  plans: ReadonlyMap<number, TurnPlan>,
): Map<number, number[]> {
  const lastChunks = new Map<number, number>();
  for (const [turn, plan] of plans) if (plan.lastChunk >= 0) lastChunks.set(plan.lastChunk, turn);
  const waiting = new Map<string, number[]>();
  const flushAt = new Map<number, number[]>();
  records.forEach((record, index) => {
    if (record.kind === "event" && record.event.type === "metric") {
      const level = record.event.parent ?? "";
      const turns = waiting.get(level);
      if (turns !== undefined) flushAt.set(index, turns);
      waiting.delete(level);
    }
    const turn = lastChunks.get(index);
    if (turn === undefined) return;
    const level = plans.get(turn)?.parent ?? "";
    waiting.set(level, [...(waiting.get(level) ?? []), turn]);
  });
  return flushAt;
}

function append<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
