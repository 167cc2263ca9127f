/**
 * `Store.listTranscriptRuns`, the same for every store: the memory store's walk over its
 * records (`transcriptRunsOf`), and the SQL stores' rows put together (`transcriptRunsFromRows`).
 */
import type { RunTailEvents, StoredRecord, TranscriptRecord, TranscriptRun } from "./store";

/** A row of the SQL stores' runs query: a run, with one kind of its tail events (or none). */
export interface TranscriptRunRow {
  first_seq: number;
  last_seq: number;
  run_id: string;
  records: number;
  started_at: number | null;
  last_t: number | null;
  /** null: the run has no event after its last chunk or request. */
  type: string | null;
  code: string | null;
  span: number | boolean | null;
  at: number | null;
}

/** Runs from rows (each run's rows together, runs in `seq` order), tails ordered. */
export function transcriptRunsFromRows(rows: readonly TranscriptRunRow[]): TranscriptRun[] {
  const runs: TranscriptRun[] = [];
  for (const row of rows) {
    let run = runs.at(-1);
    if (run?.firstSeq !== Number(row.first_seq)) {
      run = {
        runId: row.run_id,
        firstSeq: Number(row.first_seq),
        lastSeq: Number(row.last_seq),
        records: Number(row.records),
        startedAt: row.started_at === null ? null : Number(row.started_at),
        lastT: row.last_t === null ? null : Number(row.last_t),
        tail: [],
      };
      runs.push(run);
    }
    if (row.type === null || row.at === null) continue;
    run.tail.push({
      type: row.type,
      ...(row.code === null ? {} : { code: row.code }),
      span: Boolean(row.span),
      at: Number(row.at),
    });
  }
  for (const run of runs) run.tail.sort(byKind);
  return runs;
}

/** The runs of `records` (in `seq` order), as the SQL stores' query finds them. */
export function transcriptRunsOf(records: readonly StoredRecord[]): TranscriptRun[] {
  const runs: TranscriptRun[] = [];
  let tail = new Map<string, RunTailEvents>();
  const close = () => {
    const run = runs.at(-1);
    if (run !== undefined) run.tail = [...tail.values()].sort(byKind);
    tail = new Map();
  };
  records.forEach((record, index) => {
    let run = runs.at(-1);
    const opens = isUserMessage(record);
    if (run === undefined || index === 0 || opens || record.runId !== run.runId) {
      close();
      run = {
        runId: record.runId,
        firstSeq: record.seq,
        lastSeq: record.seq,
        records: 0,
        startedAt: opens && record.kind === "event" ? record.event.timestamp : null,
        lastT: null,
        tail: [],
      };
      runs.push(run);
    }
    run.lastSeq = record.seq;
    run.records++;
    if (record.kind !== "event") {
      run.lastT = Math.max(run.lastT ?? Number.NEGATIVE_INFINITY, record.t);
      tail.clear();
      return;
    }
    const { event } = record;
    const code = event.type === "error" ? event.code : undefined;
    const span = "span" in event && event.span !== undefined;
    const key = `${event.type}\u0000${code ?? ""}\u0000${span}`;
    const at = Math.max(tail.get(key)?.at ?? Number.NEGATIVE_INFINITY, event.timestamp);
    tail.set(key, { type: event.type, ...(code === undefined ? {} : { code }), span, at });
  });
  close();
  return runs;
}

function isUserMessage(record: TranscriptRecord): boolean {
  return (
    record.kind === "event" && record.event.type === "user" && record.event.parent === undefined
  );
}

/** Tail entries by type, then code (none first), then span (none first). */
function byKind(a: RunTailEvents, b: RunTailEvents): number {
  return (
    compare(a.type, b.type) ||
    compare(a.code ?? "", b.code ?? "") ||
    Number(a.span) - Number(b.span)
  );
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
