import type { Dialect, DialectDefinition } from "@/lib/protocol";
import type { TranscriptRecord } from "@/lib/protocol/records";
import type { ReplayDiff } from "@/lib/replay/diff";
import { replayRecords } from "@/lib/replay/replay";
import { buildTimeline, type RunClock, type TimedRecord, timedRun } from "@/lib/replay/timeline";
import { type ReplayMark, replayMarks } from "./marks";
import { HeldRecords, type PlannedRecord, runIdAt } from "./plan-cuts";

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

/** Records of one run held back past which it is planned a few turns at a time. */
export const SPLIT_RUNS_OVER = 1000;

/**
 * A transcript planned as it is read, from its first record, a run at a time: records are
 * added in order, and each run is planned once it is known to be whole (the next one began, or
 * nothing more comes), after the runs before it. Runs replay and time on their own (a run's
 * turns, parsers and clock start with it), so the entries are those `planReplay` gives for all
 * the runs at once: a run is planned apart from the next only once it is known to be over
 * (`plan-cuts.ts`), so a turn a crash cut short is planned with the runs after it and flushed
 * at the next run's first metric, as when planned whole. A run longer than
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
  /** The run not yet known to be whole, and where it may be cut (kept as records come). */
  private readonly held = new HeldRecords();
  /** The run whose first turns are planned and that the held records go on with. */
  private going: { runId: string; clock: RunClock; epoch: number } | null = null;

  constructor(
    private readonly dialect: Dialect | DialectDefinition,
    private readonly splitRunsOver = SPLIT_RUNS_OVER,
  ) {}

  get duration(): number {
    return this.entries.at(-1)?.at ?? 0;
  }

  /** The last run planned goes on in the records held (a long run planned a few turns at a time). */
  get midRun(): boolean {
    return this.going !== null;
  }

  /**
   * Adds the records that follow those added before (`last`: the transcript ends with them)
   * and plans every run they complete, and the whole turns of a long run. Answers the entries
   * it planned.
   */
  add(records: readonly PlannedRecord[], last: boolean): TimedRecord[] {
    for (const record of records) this.held.add(record);
    const pending = this.held.records;
    let cut = last ? pending.length : this.held.lastRunStart();
    const turnCut = last ? cut : this.held.lastTurnStart(cut, this.splitRunsOver);
    const partial = turnCut > cut;
    cut = turnCut;
    if (last) this.complete = true;
    if (cut === 0) return [];
    // Cut inside a run, the next turn's request (its `t`) holds the times of the records before it.
    const next = partial ? [pending[cut] as PlannedRecord] : [];
    const goingOn = partial ? runIdAt(pending, cut) : "";
    const part = this.held.takeBefore(cut);
    const going = this.going;
    const {
      records: replayed,
      diffs,
      epoch,
    } = replayRecords(
      this.dialect,
      part,
      going === null ? {} : { continues: { runId: going.runId, epoch: going.epoch } },
    );
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
    // The run going on keeps its start (`replayRecords` was told it) unless another began.
    this.going = partial ? { runId: goingOn, clock, epoch } : null;
    return planned;
  }
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
