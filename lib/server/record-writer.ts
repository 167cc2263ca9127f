import type { TranscriptRecord } from "../protocol/records";
import type { RunRecordBatch, Store } from "../store";

/** How long records wait to be grouped into one commit with every other live run's. */
export const COMMIT_DELAY_MS = 10;
/**
 * The longest wait: under load the wait grows to `COMMIT_BUSY_FACTOR` × the last commit's time.
 * A commit's cost is mostly its runs' pages, so records a run puts in each commit is what the
 * store's CPU follows (`bench/live-store.ts`: 3 a run 20–25 µs a record, 9 13, 27 8.4–9.0).
 * At 300 streaming runs the wait was held at 100 ms (3 records a run); 400 took the commits'
 * share from 14–23 to 9–15 µs a record in the load bench (docs/performance.md). It is also
 * what a crash of a heavily loaded server may lose: records its viewers have seen, not stored.
 */
export const COMMIT_MAX_DELAY_MS = 400;
/**
 * A run's end waits for the store at most this long (`flush` brings a later commit forward):
 * the conversation is busy, and its viewers open, until its last records are stored.
 */
export const COMMIT_END_DELAY_MS = 100;
/**
 * Commits take at most about 1 / (this + 1) of the thread: a commit of 5 ms is followed by
 * 80 ms. A commit costs mostly per run in it (each run's pages are written whatever number of
 * its records they hold), so the longer wait stores more records per page written, and a
 * cheaper commit is not simply made more often. 8 rather than 4 took 300 runs' commits from
 * 22.7–24.0 to 20.4–23.0 µs a record; 16 rather than 8 from 24.3 to 20.6 (100 runs) and 19.0
 * to 17.6 (300 runs), means of five interleaved pairs at load 4–8 (README). The longest wait
 * (`COMMIT_MAX_DELAY_MS`) still bounds what a crash loses.
 */
export const COMMIT_BUSY_FACTOR = 16;

export interface CommitQueueOptions {
  /** The shortest wait, ms (default `COMMIT_DELAY_MS`). */
  delayMs?: number;
  /** The longest wait, ms (default `COMMIT_MAX_DELAY_MS`). */
  maxDelayMs?: number;
  /** The longest a run's end waits for its commit, ms (default `COMMIT_END_DELAY_MS`). */
  endDelayMs?: number;
  /** A clock in ms, to time commits (default `performance.now`). */
  now?: () => number;
  /** The instance writing: the store stores a run's records only while it holds the run. */
  instanceId?: string;
}

/** Appends one run's records in order; `flush()` settles once everything written is stored. */
export interface RecordWriter {
  /** `json`: `JSON.stringify(record)` if made already (stored as is, not made again). */
  write(record: TranscriptRecord, json?: string): void;
  flush(): Promise<void>;
}

/** Records written and not stored: a failed commit's, then any written since. */
export interface UnstoredRecords {
  records: TranscriptRecord[];
  json: (string | undefined)[];
  /**
   * How many of the run's records the store had taken before these. A commit that failed may
   * still have been applied (PostgreSQL's answer to `COMMIT` lost with its connection), so
   * whoever stores them later first looks for them after this many.
   */
  after?: number;
}

export interface CommitQueue {
  /**
   * `onError` is called once, on the first append that fails, with what was written and not
   * stored (the caller may store it later); later writes are dropped.
   */
  writer(
    transcriptId: string,
    runId: string,
    onError: (error: unknown, unstored: UnstoredRecords) => void,
  ): RecordWriter;
}

interface WriterState {
  batch: RunRecordBatch & UnstoredRecords;
  onError: (error: unknown, unstored: UnstoredRecords) => void;
  failed: boolean;
  /** Records the store has taken. */
  stored: number;
}

/**
 * Groups the records of every live run into one store call (one SQLite transaction) every few
 * milliseconds, instead of one transaction per record: with hundreds of runs streaming a
 * record every 15 ms each, per-record commits were a quarter of the server's CPU. One commit is
 * in flight at a time, so each run's records reach the store in the order they were written.
 *
 * The wait adapts to load: `delayMs` while commits are quick, up to `maxDelayMs` when they take
 * long. A commit's cost is mostly per run in it (each run's pages are written whatever number
 * of its records they hold), so under load a longer wait stores more records per page written.
 * Viewers never wait for it (frames go out before the commit); `flush()` (a run's end) waits
 * for the next commit rather than making one, so runs ending together share it, and brings it
 * forward to at most `endDelayMs` away.
 */
export function createCommitQueue(store: Store, options: CommitQueueOptions = {}): CommitQueue {
  const {
    delayMs = COMMIT_DELAY_MS,
    maxDelayMs = COMMIT_MAX_DELAY_MS,
    endDelayMs = COMMIT_END_DELAY_MS,
    now = () => performance.now(),
    instanceId,
  } = options;
  let pending = new Set<WriterState>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** When the scheduled commit starts, on `now`'s clock. */
  let dueAt = 0;
  let wait = delayMs;
  // At most one commit in flight; what arrives meanwhile goes in the one after it, whole. A slow
  // store (PostgreSQL: a round trip per statement) then gets bigger commits, never a growing
  // queue of small ones (which let records reach the store seconds late under load).
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  // Flushes waiting for the commit that takes what is pending now (the next one to start).
  let waiters: (() => void)[] = [];

  const run = (): Promise<void> => {
    const writers = [...pending];
    pending = new Set();
    const settled = waiters;
    waiters = [];
    if (writers.length === 0) {
      for (const resolve of settled) resolve();
      return Promise.resolve();
    }
    const batches = writers.map((writer) => {
      const batch = { ...writer.batch };
      writer.batch.records = [];
      writer.batch.json = [];
      return batch;
    });
    const committing = (async () => {
      let results: Awaited<ReturnType<Store["appendRunRecords"]>>;
      const began = now();
      try {
        results = await store.appendRunRecords(batches);
      } catch (error) {
        results = batches.map(() => ({ ok: false, error }));
      }
      wait = Math.min(maxDelayMs, Math.max(delayMs, (now() - began) * COMMIT_BUSY_FACTOR));
      results.forEach((result, index) => {
        const writer = writers[index];
        const batch = batches[index];
        if (writer === undefined || batch === undefined || writer.failed) return;
        if (result.ok) {
          writer.stored += batch.records.length;
          return;
        }
        writer.failed = true;
        // This commit's records of the run, then those written since (not to be committed now).
        const unstored = {
          records: [...batch.records, ...writer.batch.records],
          json: [...batch.json, ...writer.batch.json],
          after: writer.stored,
        };
        writer.batch.records = [];
        writer.batch.json = [];
        pending.delete(writer);
        writer.onError(result.error, unstored);
      });
    })().finally(() => {
      running = null;
      for (const resolve of settled) resolve();
    });
    running = committing;
    return committing;
  };

  const schedule = (ms: number): void => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(commit, ms);
    dueAt = now() + ms;
  };

  const commit = (): Promise<void> => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (running === null) return run();
    next ??= running.then(() => {
      next = null;
      return run();
    });
    return next;
  };
  /** Settles once everything handed to the store so far is stored. */
  const committed = (): Promise<void> => next ?? running ?? Promise.resolve();

  return {
    writer(transcriptId, runId, onError) {
      const state: WriterState = {
        batch: {
          transcriptId,
          runId,
          records: [],
          json: [],
          ...(instanceId === undefined ? {} : { instanceId }),
        },
        onError,
        failed: false,
        stored: 0,
      };
      return {
        write(record, json) {
          if (state.failed) return;
          state.batch.records.push(record);
          state.batch.json.push(json);
          pending.add(state);
          if (timer === null) schedule(wait);
        },
        async flush() {
          if (!pending.has(state)) return committed();
          if (timer !== null && dueAt - now() > endDelayMs) schedule(endDelayMs);
          // The run's last records join the commit already scheduled (at most one wait away)
          // rather than forcing one of their own: with hundreds of runs, ends come every few
          // ms, and a commit per end was most of the commits. Earlier commits settle first.
          await new Promise<void>((resolve) => waiters.push(resolve));
        },
      };
    },
  };
}
