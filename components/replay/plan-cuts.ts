import type { ProtocolEvent } from "@/lib/protocol/events";
import type { TranscriptRecord } from "@/lib/protocol/records";
import { isParserEvent } from "@/lib/replay/parser-events";
import { isUserMessage } from "@/lib/replay/timeline";

/** A stored record: the run it belongs to (absent: the run before it) and its place. */
export type PlannedRecord = TranscriptRecord & { runId?: string; seq?: number };

/**
 * Records of other runs after a run's last one, past which it is taken to have ended (calls
 * made at the same time stream their records within a few of each other) when it is between
 * turns (a tool running, say).
 */
export const SETTLED_AFTER = 200;

/**
 * The same for a run part-way through a turn (its request or chunks, no metric yet): a call
 * waiting on a slow model may be silent a long while as others stream, so the wait is longer.
 * It is still bounded: a turn the process crashed in, or a captured call whose provider
 * reported no usage (it has no metric), never ends.
 */
export const STALLED_AFTER = 2000;

/** What the records held tell of a run (a `runKeys` key): where it is, and whether it ended. */
interface RunSoFar {
  /** Where its first and last records are. */
  first: number;
  last: number;
  /** Its records so far end it (`endsRun`). */
  ended: boolean;
  /** Its turns begun (a request, a chunk) that have no metric yet. */
  open: Set<number>;
  /** A call was written since its last metric: that turn's results start another turn. */
  called: boolean;
}

/**
 * The records a `ReplayPlanner` holds back, and what they tell of where the planner may cut
 * them, kept as records are added, so that each record is looked at once (and once more after
 * a cut, when it is held back past it) instead of at every page: the state of `runStarts`,
 * `runKeys` and `groupStarts` (timeline.ts) over the records held, each run's `RunSoFar`, and
 * the scan of `lastTurnStart` from the first record held.
 */
export class HeldRecords {
  /** The records held, in order. */
  readonly records: PlannedRecord[] = [];
  /** The last stored run id seen (`runStarts`) and the one keys are counted under (`runKeys`). */
  private runId: string | undefined;
  private keyRunId = "";
  /** User messages seen per stored run id (`runKeys`). */
  private readonly messages = new Map<string, number>();
  private readonly runs = new Map<string, RunSoFar>();
  /**
   * The runs heard from in the last `STALLED_AFTER` records, by their last record, oldest
   * first: the others are settled whatever their state (until they are heard from again).
   */
  private readonly recent = new Map<string, RunSoFar>();
  /** Where groups begin as far as the records held tell (`groupStarts`), ascending. */
  private readonly groups: number[] = [];
  /** `lastTurnStart` from the first record held: how far it got, and what it found. */
  private turnRunId = "";
  private readonly streaming = new Set<number>();
  private turn = 0;
  /** Another run or a user message came: the first record held is all it answers. */
  private turnStopped = false;

  get length(): number {
    return this.records.length;
  }

  add(record: PlannedRecord): void {
    const index = this.records.length;
    this.records.push(record);
    const user = isUserMessage(record);
    // `runStarts`: a user message, or where the stored run id changes.
    const changed =
      record.runId !== undefined && this.runId !== undefined && record.runId !== this.runId;
    if (record.runId !== undefined) {
      this.runId = record.runId;
      this.keyRunId = record.runId;
    }
    const start = user || changed;
    // `runKeys`: the stored run id, counted anew at each of its user messages.
    let count = this.messages.get(this.keyRunId) ?? 0;
    if (user) this.messages.set(this.keyRunId, ++count);
    const key = `${count}:${this.keyRunId}`;
    let run = this.runs.get(key);
    if (run === undefined) {
      run = { first: index, last: index, ended: false, open: new Set(), called: false };
      this.runs.set(key, run);
      if (start || index === 0) this.groups.push(index);
    } else {
      // A run that comes back: no group begins between its first record and this one.
      while ((this.groups.at(-1) ?? -1) > run.first) this.groups.pop();
    }
    run.last = index;
    endsRun(run, record);
    this.recent.delete(key);
    this.recent.set(key, run);
    this.scanTurn(record, index);
  }

  /**
   * Where the last run of the records held begins (0 when they are all one run) that is known
   * to begin a group of its own (`groupStarts`: runs that ran at the same time count as one),
   * as it will be once every record is read: every run before it ended (`endsRun`), or was
   * not heard from for `SETTLED_AFTER` records (`STALLED_AFTER` when part-way through a turn). A
   * user message alone does not tell: a call made at the same time opens with one too. Cut
   * earlier, a run that comes back later would start a group of its own there: its turn fed to a
   * second parser, timed apart from its first part.
   */
  lastRunStart(): number {
    const end = this.records.length - 1;
    // The cut comes at or before the last record of every run that may still go on: the one
    // heard from longest ago bounds it.
    let bound = end;
    for (const [key, run] of this.recent) {
      const quiet = end - run.last;
      if (quiet >= STALLED_AFTER) {
        this.recent.delete(key);
        continue;
      }
      if (run.ended || quiet >= (run.open.size > 0 ? STALLED_AFTER : SETTLED_AFTER)) continue;
      bound = run.last;
      break;
    }
    // The last group start at or before the bound (`groups` is ascending).
    let low = 0;
    let high = this.groups.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.groups[middle] as number) <= bound) low = middle + 1;
      else high = middle;
    }
    return low === 0 ? 0 : (this.groups[low - 1] as number);
  }

  /** `lastTurnStart(this.records, from, over)`, from what was found as records came when `from` is 0. */
  lastTurnStart(from: number, over: number): number {
    if (from > 0 || this.records.length < over) return lastTurnStart(this.records, from, over);
    return this.turnStopped ? 0 : this.turn;
  }

  /**
   * Takes the records before `cut` out (the planner plans them), and works out what the records
   * still held tell, as if they had just been added.
   */
  takeBefore(cut: number): PlannedRecord[] {
    const taken = this.records.slice(0, cut);
    const kept = this.records.slice(cut);
    this.records.length = 0;
    this.runId = undefined;
    this.keyRunId = "";
    this.messages.clear();
    this.runs.clear();
    this.recent.clear();
    this.groups.length = 0;
    this.streaming.clear();
    this.turn = 0;
    this.turnStopped = false;
    for (const record of kept) this.add(record);
    return taken;
  }

  /** One more record of `lastTurnStart`'s scan from the first record held. */
  private scanTurn(record: PlannedRecord, index: number): void {
    if (index === 0) {
      this.turnRunId = record.runId ?? "";
      return;
    }
    if (this.turnStopped) return;
    const turn = turnStep(record, this.turnRunId, this.streaming);
    if (turn === "stop") this.turnStopped = true;
    else if (turn === "starts") this.turn = index;
  }
}

/**
 * One record of `lastTurnStart`'s scan of a run: whether it is another run (or a user message:
 * "stop"), a `request` at which every turn that streamed before it has its metric ("starts"),
 * or neither; the turns streaming are kept in `streaming`.
 */
function turnStep(
  record: PlannedRecord,
  runId: string,
  streaming: Set<number>,
): "stop" | "starts" | undefined {
  if (record.runId !== undefined && record.runId !== runId) return "stop";
  if (record.kind === "request") return streaming.size === 0 ? "starts" : undefined;
  if (record.kind === "chunk") {
    streaming.add(record.turn);
    return undefined;
  }
  const { event } = record;
  if (event.type === "user" && event.parent === undefined) return "stop";
  if (event.type !== "metric") return undefined;
  // A metric without its turn (older transcripts) ends whatever streamed.
  if (event.turn === undefined) streaming.clear();
  else streaming.delete(event.turn);
  return undefined;
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
    const step = turnStep(records[index] as PlannedRecord, runId, streaming);
    if (step === "stop") return from;
    if (step === "starts") turn = index;
  }
  return turn;
}

/** The stored run of the record at `index` (a record without one: the run before it). */
export function runIdAt(records: readonly PlannedRecord[], index: number): string {
  for (let at = index; at >= 0; at--) {
    const runId = records[at]?.runId;
    if (runId !== undefined) return runId;
  }
  return "";
}
