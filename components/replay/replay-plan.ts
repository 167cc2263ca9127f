import type { Dialect, DialectDefinition } from "@/lib/protocol";
import type { TranscriptRecord } from "@/lib/protocol/records";
import type { ReplayDiff } from "@/lib/replay/diff";
import { isParserEvent } from "@/lib/replay/parser-events";
import { replayRecords } from "@/lib/replay/replay";
import {
  buildTimeline,
  groupStarts,
  type RunClock,
  runEpochs,
  runKeys,
  runStarts,
  type TimedRecord,
  timedRun,
} from "@/lib/replay/timeline";
import { type ReplayMark, replayMarks } from "./marks";

/** What the replay bar plays: the re-parsed records on the recorded clock, and what differs. */
export interface ReplayPlan {
  entries: TimedRecord[];
  diffs: ReplayDiff[];
  marks: ReplayMark[];
  duration: number;
}

/**
 * Re-feeds the recorded chunks through today's parser (`replayRecords`) and times the result
 * the way it was recorded (`buildTimeline`). Pure: the same transcript gives the same plan.
 */
export function planReplay(
  dialect: Dialect | DialectDefinition,
  records: readonly TranscriptRecord[],
): ReplayPlan {
  const { records: replayed, diffs } = replayRecords(dialect, records);
  const entries = buildTimeline(replayed);
  const duration = entries.at(-1)?.at ?? 0;
  return { entries, diffs, marks: replayMarks(entries, duration), duration };
}

type PlannedRecord = TranscriptRecord & { runId?: string; seq?: number };

/** Records of one run held back past which it is planned a few turns at a time. */
export const SPLIT_RUNS_OVER = 1000;

/**
 * A transcript planned as it is read, from its first record, a run at a time: records are
 * added in order, and each run is planned once it is known to be whole (the next one began, or
 * nothing more comes), after the runs before it. Runs replay and time on their own (a run's
 * turns, parsers and clock start with it), so the entries are those `planReplay` gives for all
 * the runs at once (but for a turn a crash cut short: planned whole, its parser is flushed at
 * the next run's first metric; planned by run, never, as the agent loop did). A run longer than
 * `splitRunsOver` records is planned up to its last turn's start (a `request`: the turns before
 * it are whole, their parsers flushed), and goes on from there with the same clock.
 */
export class ReplayPlanner {
  /** The planned entries, in order; grows as runs are planned. */
  readonly entries: TimedRecord[] = [];
  readonly diffs: ReplayDiff[] = [];
  /** Records planned (the held-back run not counted), and the last one's `seq`. */
  records = 0;
  lastSeq = 0;
  /** Every record has been added and planned. */
  complete = false;
  /** The run not yet known to be whole. */
  private held: PlannedRecord[] = [];
  /** The run whose first turns are planned and that the held records go on with. */
  private going: { runId: string; clock: RunClock; epoch: number } | null = null;

  constructor(
    private readonly dialect: Dialect | DialectDefinition,
    private readonly splitRunsOver = SPLIT_RUNS_OVER,
  ) {}

  get duration(): number {
    return this.entries.at(-1)?.at ?? 0;
  }

  /**
   * Adds the records that follow those added before (`last`: the transcript ends with them)
   * and plans every run they complete, and the whole turns of a long run. Answers the entries
   * it planned.
   */
  add(records: readonly PlannedRecord[], last: boolean): TimedRecord[] {
    const pending = this.held.concat(records);
    let cut = last ? pending.length : lastRunStart(pending);
    const turnCut = last ? cut : lastTurnStart(pending, cut, this.splitRunsOver);
    const partial = turnCut > cut;
    cut = turnCut;
    this.held = pending.slice(cut);
    if (last) this.complete = true;
    if (cut === 0) return [];
    const part = pending.slice(0, cut);
    const going = this.going;
    const { records: replayed, diffs } = replayRecords(
      this.dialect,
      part,
      going === null ? {} : { continues: { runId: going.runId, epoch: going.epoch } },
    );
    // Cut inside a run, the next turn's request (its `t`) holds the times of the records before it.
    const next = partial ? [pending[cut] as PlannedRecord] : [];
    const { entries, clock } = timedRun(
      replayed.concat(next),
      going !== null
        ? { resume: { ...going.clock, last: this.duration } }
        : this.records === 0
          ? {}
          : { after: this.duration },
    );
    const planned = partial ? entries.slice(0, -1) : entries;
    for (const entry of planned) this.entries.push(entry);
    for (const diff of diffs) this.diffs.push(diff);
    this.records += part.length;
    this.lastSeq = part.at(-1)?.seq ?? this.lastSeq + part.length;
    const runId = runIdAt(pending, cut);
    this.going = partial
      ? { runId, clock, epoch: going?.runId === runId ? going.epoch : replayEpoch(part) }
      : null;
    return planned;
  }
}

/**
 * Where the last turn of the run `records` end with begins (a `request` after `from` at which
 * every turn that streamed before it has its metric: no parser is cut, not even a parent's
 * whose tool started a sub-agent mid-stream), when the records from `from` on are that run
 * alone and at least `over` of them; else `from`.
 */
function lastTurnStart(records: readonly PlannedRecord[], from: number, over: number): number {
  if (records.length - from < over) return from;
  const runId = runIdAt(records, from);
  const streaming = new Set<number>();
  let turn = from;
  for (let index = from + 1; index < records.length; index++) {
    const record = records[index] as PlannedRecord;
    if (record.runId !== undefined && record.runId !== runId) return from;
    if (record.kind === "request" && streaming.size === 0) turn = index;
    if (record.kind === "chunk") streaming.add(record.turn);
    if (record.kind !== "event") continue;
    const { event } = record;
    if (event.type === "user" && event.parent === undefined) return from;
    if (event.type !== "metric") continue;
    // A metric without its turn (older transcripts) ends whatever streamed.
    if (event.turn === undefined) streaming.clear();
    else streaming.delete(event.turn);
  }
  return turn;
}

/** The stored run of the record at `index` (a record without one: the run before it). */
function runIdAt(records: readonly PlannedRecord[], index: number): string {
  for (let at = index; at >= 0; at--) {
    const runId = records[at]?.runId;
    if (runId !== undefined) return runId;
  }
  return "";
}

/** When the run the records end with started, as `replayRecords` sets its parser clock. */
function replayEpoch(records: readonly PlannedRecord[]): number {
  const starts = runStarts(records);
  const keys = runKeys(records, starts);
  return runEpochs(records, keys, starts).get(keys.at(-1) ?? "") ?? 0;
}

/**
 * Records after a place that may begin a group of runs, none of them from a run before it,
 * past which no run before it is expected to come back (calls made at the same time stream
 * their records within a few of each other).
 */
export const SETTLED_AFTER = 200;

/**
 * Where the last run of `records` begins (0 when they are all one run) that is known to begin a
 * group of its own (`groupStarts`: runs that ran at the same time count as one), as it will be
 * once every record is read: at a user message, once every run before it ended (its last
 * record so far ends a call: a metric, an interrupt, a runtime error), or once
 * `SETTLED_AFTER` records of other runs followed. Planned earlier, a run that comes back
 * later would start a group of its own there (timed and parsed apart from its first part).
 */
function lastRunStart(records: readonly PlannedRecord[]): number {
  const starts = groupStarts(records);
  const settled = runsEndedBefore(records);
  for (let index = starts.length - 1; index > 0; index--) {
    if (!starts[index]) continue;
    const record = records[index] as PlannedRecord;
    const message =
      record.kind === "event" && record.event.type === "user" && record.event.parent === undefined;
    if (message || settled[index] || records.length - index >= SETTLED_AFTER) return index;
  }
  return 0;
}

/** For each index: whether every run before it ended with its last record before it. */
function runsEndedBefore(records: readonly PlannedRecord[]): boolean[] {
  const ended = new Map<string, boolean>();
  let open = 0;
  let runId = "";
  return records.map((record) => {
    const before = open === 0;
    if (record.runId !== undefined) runId = record.runId;
    const was = ended.get(runId);
    const now = endsCall(record);
    if (was !== now) open += was === undefined ? (now ? 0 : 1) : now ? -1 : 1;
    ended.set(runId, now);
    return before;
  });
}

/** A record a call's records end with: its metric, an interrupt, a runtime error. */
function endsCall(record: TranscriptRecord): boolean {
  if (record.kind !== "event" || record.event.parent !== undefined) return false;
  const { event } = record;
  return (
    event.type === "metric" ||
    event.type === "interrupt" ||
    (event.type === "error" && !isParserEvent(event))
  );
}

/**
 * The replay's whole length while only its first runs are planned: the planned time per
 * record, for every record of the transcript (`recordCount`). Exact once `complete`.
 */
export function estimatedDuration(planner: ReplayPlanner, recordCount: number): number {
  const through = planner.lastSeq || planner.records;
  if (planner.complete || through === 0) return planner.duration;
  return (planner.duration * Math.max(recordCount, through)) / through;
}
