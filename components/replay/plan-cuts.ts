import type { ProtocolEvent } from "@/lib/protocol/events";
import type { TranscriptRecord } from "@/lib/protocol/records";
import { isParserEvent } from "@/lib/replay/parser-events";
import { groupStarts, runKeys, runStarts } from "@/lib/replay/timeline";

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
export function runIdAt(records: readonly PlannedRecord[], index: number): string {
  for (let at = index; at >= 0; at--) {
    const runId = records[at]?.runId;
    if (runId !== undefined) return runId;
  }
  return "";
}
