/**
 * The paged planner as it was before it kept what the held records tell across pages (commit
 * 1b2b425): every `add` worked out the cuts again from all the records held. Kept verbatim as
 * the oracle of `replay-plan.property.test.ts` (the plans must stay byte-identical). Tests only.
 */
import type { Dialect, DialectDefinition } from "@/lib/protocol";
import type { ProtocolEvent } from "@/lib/protocol/events";
import type { TranscriptRecord } from "@/lib/protocol/records";
import type { ReplayDiff } from "@/lib/replay/diff";
import { isParserEvent } from "@/lib/replay/parser-events";
import { replayRecords } from "@/lib/replay/replay";
import {
  groupStarts,
  type RunClock,
  runKeys,
  runStarts,
  type TimedRecord,
  timedRun,
} from "@/lib/replay/timeline";
import { type PlannedRecord, SETTLED_AFTER, STALLED_AFTER } from "./plan-cuts";
import { SPLIT_RUNS_OVER } from "./replay-plan";

export class OracleReplayPlanner {
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
    const {
      records: replayed,
      diffs,
      epoch,
    } = replayRecords(
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
    // The run going on keeps its start (`replayRecords` was told it) unless another began.
    this.going = partial ? { runId: runIdAt(pending, cut), clock, epoch } : null;
    return planned;
  }
}
/** What the records read so far tell of a run: where its last record is, and whether it ended. */
interface RunSoFar {
  last: number;
  /** Its records so far end it (`endsRun`). */
  ended: boolean;
  /** Its turns begun (a request, a chunk) that have no metric yet. */
  open: Set<number>;
  /** A call was written since its last metric: that turn's results start another turn. */
  called: boolean;
}

/**
 * Where the last run of `records` begins (0 when they are all one run) that is known to begin a
 * group of its own (`groupStarts`: runs that ran at the same time count as one), as it will be
 * once every record is read: every run before it ended (`endsRun`), or was
 * not heard from for `SETTLED_AFTER` records (`STALLED_AFTER` when part-way through a turn). A
 * user message alone does not tell: a call made at the same time opens with one too. Cut
 * earlier, a run that comes back later would start a group of its own there: its turn fed to a
 * second parser, timed apart from its first part.
 */
export function lastRunStart(records: readonly PlannedRecord[]): number {
  const groups = groupStarts(records);
  const keys = runKeys(records, runStarts(records));
  const runs = new Map<string, RunSoFar>();
  records.forEach((record, index) => {
    const key = keys[index] as string;
    let run = runs.get(key);
    if (run === undefined) {
      run = { last: index, ended: false, open: new Set(), called: false };
      runs.set(key, run);
    }
    run.last = index;
    endsRun(run, record);
  });
  // The cut comes at or before the last record of every run that may still go on.
  let bound = records.length - 1;
  for (const run of runs.values()) {
    const quiet = records.length - 1 - run.last;
    if (run.ended || quiet >= (run.open.size > 0 ? STALLED_AFTER : SETTLED_AFTER)) continue;
    bound = Math.min(bound, run.last);
  }
  for (let index = bound; index > 0; index--) if (groups[index]) return index;
  return 0;
}

/**
 * Folds `record` into what is known of its run. A run ends (as the agent loop ends it) with the
 * metric of a turn that wrote no call, an `end` after its last turn's metric, an interrupt, or
 * a runtime error that stops it; a metric after calls only ends a turn (the tools' results
 * start the next), so the run is then between turns, not over.
 */
function endsRun(run: RunSoFar, record: TranscriptRecord): void {
  if (record.kind !== "event") {
    run.open.add(record.turn);
    run.ended = false;
    return;
  }
  const { event } = record;
  if (event.parent !== undefined) run.ended = false;
  else if (event.type === "metric") {
    // A metric without its turn (older transcripts) ends whatever streamed.
    if (event.turn === undefined) run.open.clear();
    else run.open.delete(event.turn);
    run.ended = !run.called;
    run.called = false;
  } else if (event.type === "end") run.ended = run.open.size === 0;
  else if (event.type === "interrupt" || stopsRun(event)) {
    run.ended = true;
    run.open.clear();
  } else {
    if (event.type === "call") run.called = true;
    run.ended = false;
  }
}

/** Runtime errors after which the agent loop writes nothing more. */
const STOPPING = new Set([
  "provider",
  "internal",
  "storage_failed",
  "max_turns",
  "circuit_breaker",
]);

function stopsRun(event: ProtocolEvent): boolean {
  return event.type === "error" && !isParserEvent(event) && STOPPING.has(event.code);
}

/**
 * Where the last turn of the run `records` end with begins (a `request` after `from` at which
 * every turn that streamed before it has its metric: no parser is cut, not even a parent's
 * whose tool started a sub-agent mid-stream), when the records from `from` on are that run
 * alone and at least `over` of them; else `from`.
 */
export function lastTurnStart(
  records: readonly PlannedRecord[],
  from: number,
  over: number,
): number {
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
