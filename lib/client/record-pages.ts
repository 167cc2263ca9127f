import type { TranscriptRecord } from "../protocol/records";
import type { RunSpan } from "../replay/run-spans";
import type { StoredRecord } from "../store/store";
import { RunLog, turnOf } from "./run-log";

/** Records the page opens a transcript with: its tail, so the newest cards paint at once. */
export const TAIL_RECORDS = 2000;
/** Records per page read when the user scrolls up, or when everything is needed. */
export const OLDER_RECORDS = 4000;
export const ALL_RECORDS_PAGE = 10_000;

/**
 * The URL the page reads a transcript's tail from. The server component names it in a
 * `<link rel="preload">` so the read starts with the HTML, and `readTranscriptTail` asks for
 * the very same URL (the browser hands it the preloaded answer only on an exact match).
 */
export function tailPath(id: string): string {
  return `/api/transcripts/${encodeURIComponent(id)}?limit=${TAIL_RECORDS}&from=end`;
}

/** One page as `GET /api/transcripts/:id?limit=…` answers it (see docs/http-api.md). */
export interface RecordPageQuery {
  limit: number;
  before?: number;
  after?: number;
  from?: "end";
  /** Ask for the transcript's runs too (`RunSpan`s: how long its replay is). */
  runs?: 1;
}

export type PageResult<T> = { ok: true; value: T } | { ok: false; error: string };

export type FetchRecords = (
  query: RecordPageQuery,
) => Promise<PageResult<{ records: StoredRecord[]; recordCount: number; runs?: RunSpan[] }>>;

/** The model turn a record belongs to, if any (user messages and some results have none). */
export function recordTurn(record: TranscriptRecord): number | undefined {
  if (record.kind === "event") return turnOf(record.event);
  return record.turn;
}

/**
 * Where a run of records that ends at a turn boundary (or at the transcript's end) can begin
 * without cutting a model turn: a turn's spans point into all of its chunks, and its think and
 * respond pieces merge by id, so a turn is shown whole or not at all. The first turn seen may
 * have begun before these records: everything up to its last record is dropped. `null` when
 * these records hold a part of one turn only (read further back).
 */
export function wholeTurnsFrom(records: readonly StoredRecord[]): number | null {
  if (records.length === 0 || (records[0]?.seq ?? 1) <= 1) return 0;
  let first: number | undefined;
  let lastOfFirst = -1;
  for (let index = 0; index < records.length; index++) {
    const turn = recordTurn(records[index] as StoredRecord);
    if (turn === undefined) continue;
    if (first === undefined) first = turn;
    if (turn === first) lastOfFirst = index;
    else return lastOfFirst + 1;
  }
  // No model turn at all: nothing can be cut.
  return first === undefined ? 0 : null;
}

/**
 * Reads the records before `before` (the tail when undefined) in pages of `limit`, back to a
 * whole turn: the answer is what may be put in front of the records from `before` on.
 */
export async function readBackward(
  fetchRecords: FetchRecords,
  before: number | undefined,
  limit: number,
): Promise<PageResult<{ records: StoredRecord[]; recordCount: number }>> {
  let records: StoredRecord[] = [];
  let cursor = before;
  let recordCount = 0;
  for (;;) {
    const page = await fetchRecords({
      limit,
      from: "end",
      ...(cursor === undefined ? {} : { before: cursor }),
    });
    if (!page.ok) return page;
    recordCount = page.value.recordCount;
    if (page.value.records.length === 0) return { ok: true, value: { records, recordCount } };
    records = page.value.records.concat(records);
    const from = wholeTurnsFrom(records);
    if (from !== null) return { ok: true, value: { records: records.slice(from), recordCount } };
    cursor = records[0]?.seq;
  }
}

/** Every record after `after`, in pages of `limit`. */
export async function readForward(
  fetchRecords: FetchRecords,
  after: number,
  limit: number,
): Promise<PageResult<{ records: StoredRecord[]; recordCount: number }>> {
  let records: StoredRecord[] = [];
  let cursor = after;
  for (;;) {
    const page = await fetchRecords({ limit, after: cursor });
    if (!page.ok) return page;
    records = records.concat(page.value.records);
    const last = page.value.records.at(-1)?.seq;
    if (last === undefined || last >= page.value.recordCount)
      return { ok: true, value: { records, recordCount: page.value.recordCount } };
    cursor = last;
  }
}

/** True when `records` begin at the transcript's first record (nothing older to load). */
export function startsAtFirst(records: readonly StoredRecord[]): boolean {
  return records.length === 0 || (records[0]?.seq ?? 1) <= 1;
}

/**
 * Folds records into a fresh log in slices, awaiting `pause` between them, so a long
 * transcript never holds the main thread for long (50,000 events: ~120,000 records).
 */
export async function foldInSlices(
  transcriptId: string | null,
  records: readonly TranscriptRecord[],
  pause: () => Promise<void>,
  slice = 4000,
): Promise<RunLog> {
  const log = new RunLog();
  log.transcriptId = transcriptId;
  for (let at = 0; at < records.length; at += slice) {
    if (at > 0) await pause();
    const end = Math.min(records.length, at + slice);
    for (let index = at; index < end; index++) log.apply(records[index] as TranscriptRecord);
  }
  return log;
}

/** One step of `readFromStart`: the records after those it gave before, and whether that is all. */
export interface ForwardPage {
  records: StoredRecord[];
  /** The transcript's records (its last `seq`) as the server last said. */
  recordCount: number;
  done: boolean;
  /** The transcript's runs, with the first page read from the server (`runs` of its query). */
  runs?: RunSpan[];
}

export interface ForwardReader {
  /** The next page; after `done`, an empty one. */
  next(): Promise<PageResult<ForwardPage>>;
}

/**
 * Reads a transcript from its first record, a page of `limit` at a time, for what cannot wait
 * for all of it (replay plays the first runs while it reads on). `known`: the records already
 * here (the loaded tail, in `seq` order), handed over from memory once reached instead of read
 * again; `recordCount`: how many the transcript had when they were read. The first page asks
 * for the transcript's runs too (replay's exact length) and hands them on.
 */
export function readFromStart(
  fetchRecords: FetchRecords,
  options: { known: readonly StoredRecord[]; recordCount: number; limit: number },
): ForwardReader {
  const { known, limit } = options;
  const knownFirst = known[0]?.seq ?? Number.POSITIVE_INFINITY;
  let recordCount = Math.max(options.recordCount, known.at(-1)?.seq ?? 0);
  let after = 0;
  let done = false;
  const page = (records: StoredRecord[], runs?: RunSpan[]): PageResult<ForwardPage> => {
    after = records.at(-1)?.seq ?? after;
    done = records.length === 0 || after >= recordCount;
    return {
      ok: true,
      value: { records, recordCount, done, ...(runs === undefined ? {} : { runs }) },
    };
  };
  return {
    async next() {
      if (done) return { ok: true, value: { records: [], recordCount, done } };
      if (after + 1 >= knownFirst && after < (known.at(-1)?.seq ?? 0)) {
        const from = after + 1 - knownFirst;
        return page(known.slice(from, from + limit));
      }
      const read = await fetchRecords({
        after,
        limit: after + 1 < knownFirst ? Math.min(limit, knownFirst - 1 - after) : limit,
        ...(after === 0 ? { runs: 1 as const } : {}),
      });
      if (!read.ok) return read;
      recordCount = read.value.recordCount;
      return page(read.value.records, read.value.runs);
    },
  };
}
