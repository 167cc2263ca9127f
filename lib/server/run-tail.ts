import type { ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import type { RunInfo, Store, StoredRecord } from "../store";
import { LiveRun } from "./live-run";
import { runTag } from "./run-tag";
import type { ViewerLimits } from "./run-viewer";
import { markWatched, WATCH_RENEW_MS } from "./run-watch";

/** Records read per store call while catching up. */
const TAIL_PAGE = 1000;

/** How long failed store reads are retried before the viewers are told (`storage_failed`). */
export const TAIL_READ_RETRY_MS = 30_000;

/** What `attachAt` found: the stream, or how many records the run has (fewer than asked). */
export type TailAttach =
  | { ok: true; stream: ReadableStream<Uint8Array> }
  | { ok: false; records: number }
  /** The tail stopped before it could serve the viewer: follow the run afresh. */
  | { ok: "closed" };

export interface RunTailOptions {
  store: Store;
  run: RunInfo;
  limits: ViewerLimits;
  /** How often the store is read for new records (a notifying store pokes it sooner). */
  pollMs: number;
  now: () => number;
  /** The tail stopped: the run ended, or nobody watches it any more. */
  onClose: () => void;
  /** How long failing store reads are retried before the viewers get `storage_failed`. */
  readRetryMs?: number;
}

/**
 * A run that another instance runs, followed through the store (several instances on one
 * database): its records are read by `seq` every `pollMs` (or when the store says the
 * transcript grew) and published to a `LiveRun` that holds no writer, so viewers here get
 * exactly what viewers on the owning instance get — the stored records, in order — with the
 * same shared frames, coalescing and drop rules. One tail per run per instance, however many
 * viewers; it stops once the run has ended (every record read) or has no viewer.
 */
export class RunTail {
  readonly live: LiveRun;
  private lastSeq = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private reading: Promise<void> | null = null;
  private again = false;
  private closed = false;
  /** Requests between finding this tail and attaching to it: the tail stays open for them. */
  private holds = 0;
  /** When the store reads started failing (retried until `readRetryMs` has passed). */
  private failingSince: number | null = null;
  /** When this instance last told the store the run has viewers here (`run-watch.ts`). */
  private markedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: RunTailOptions) {
    const { run } = options;
    this.live = new LiveRun({
      runId: run.runId,
      transcriptId: run.transcriptId,
      startedAt: run.startedAt,
      writer: { write() {}, flush: async () => {} },
      stopUnwatchedAfterMs: 0,
      limits: options.limits,
      now: options.now,
    });
  }

  /** Reads what the run has stored so far; then it follows on its own. */
  async start(): Promise<void> {
    const { store, run } = this.options;
    // The count first: a run with no record yet gets its first one after it.
    const page = await store.readRecords(run.transcriptId, { limit: 1, from: "end" });
    const records = await store.listRunRecords(run.transcriptId, run.runId, 0);
    this.lastSeq = records.at(-1)?.seq ?? page?.recordCount ?? 0;
    for (const record of records) this.live.publish(plain(record));
    this.schedule();
  }

  /** Reads now (the store said the transcript grew); settles once read. */
  poke(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.reading !== null) {
      this.again = true;
      return this.reading;
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.reading = this.read().finally(() => {
      this.reading = null;
      if (this.again) {
        this.again = false;
        void this.poke();
      } else this.schedule();
    });
    return this.reading;
  }

  /**
   * A viewer from record `after` on. A viewer coming from the run's own instance may count
   * records this one has not read yet (the owner streams a record before it is stored): the
   * store is read again, every `pollMs`, for up to `waitMs` or until the run ends, before its
   * count is answered. The tail cannot close meanwhile for having no viewer, and the viewer is
   * attached in the same step as the last check, so it never joins a tail that has stopped.
   */
  async attachAt(after: number, waitMs: number): Promise<TailAttach> {
    if (this.closed) return { ok: "closed" };
    this.holds++;
    try {
      const deadline = this.options.now() + waitMs;
      while (!this.closed && !this.live.finished && after > this.live.frameCount) {
        await this.poke();
        const left = deadline - this.options.now();
        if (after <= this.live.frameCount || this.live.finished || this.closed || left <= 0) break;
        await new Promise((resolve) => setTimeout(resolve, Math.min(this.options.pollMs, left)));
      }
      if (after > this.live.frameCount) return { ok: false, records: this.live.frameCount };
      // Closed without finishing (no one watched) yet not ended for a failure: start afresh.
      if (this.closed && !this.live.finished && !this.live.viewersEnded) return { ok: "closed" };
      const stream = this.live.attach(after);
      this.noteWatched();
      return { ok: true, stream };
    } finally {
      this.holds--;
    }
  }

  /** Nobody watches it, nor is about to: it may stop following the run. */
  private get unwatched(): boolean {
    return this.live.viewerCount === 0 && this.holds === 0;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.options.onClose();
  }

  private schedule(): void {
    if (this.closed || this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.poke();
    }, this.options.pollMs);
    this.timer.unref?.();
  }

  private async read(): Promise<void> {
    const { store, run } = this.options;
    try {
      const found = await this.readNew();
      // Nothing new: the run may have ended. Its owner notes the end only after every record
      // is stored, so one more read after seeing it gets the last of them.
      const info = found ? null : await store.getRunInfo(run.runId);
      if (found || (info !== null && info.endedAt === null)) {
        this.recovered();
        this.noteWatched();
        if (this.unwatched) this.close();
        return;
      }
      while (await this.readNew()) {}
      this.recovered();
      await this.live.finish();
      this.close();
    } catch (error) {
      this.readFailed(error);
    }
  }

  /**
   * A store read failed (the database is down, say): tried again at the next poll, so a short
   * outage costs the viewers nothing. Only once reads have failed for `readRetryMs` are they
   * told, with an `error` (`storage_failed`) as their last record, never a clean-looking end
   * without the run's last records. Logged once per outage.
   */
  private readFailed(error: unknown): void {
    const now = this.options.now();
    if (this.failingSince === null) {
      this.failingSince = now;
      console.error(
        "wirescope: could not read a followed run's records (retrying):",
        String(error),
      );
    }
    if (now - this.failingSince < (this.options.readRetryMs ?? TAIL_READ_RETRY_MS)) return;
    console.error(`wirescope: gave up following run ${this.options.run.runId}:`, String(error));
    const event: ProtocolEvent = {
      type: "error",
      id: `${runTag(this.options.run.runId)}-follow`,
      timestamp: now,
      code: "storage_failed",
      message:
        "This server could not read the run's records from the database, so it stopped following " +
        "the run. The run may still be going: open it again to see the rest.",
    };
    this.live.endViewers({ kind: "event", event });
    void this.live.finish();
    this.close();
  }

  /**
   * Renews the run's "watched" mark while it has viewers here, so its own instance does not stop
   * it for having none there (`WIRESCOPE_STOP_UNWATCHED_AFTER_S`); at most once a `WATCH_RENEW_MS`.
   */
  private noteWatched(): void {
    const now = this.options.now();
    if (this.live.viewerCount === 0 || now - this.markedAt < WATCH_RENEW_MS) return;
    this.markedAt = now;
    markWatched(this.options.store, this.options.run.runId, now).catch(() => {
      this.markedAt = Number.NEGATIVE_INFINITY;
    });
  }

  private recovered(): void {
    if (this.failingSince === null) return;
    this.failingSince = null;
    console.error(`wirescope: reading run ${this.options.run.runId}'s records again.`);
  }

  /** Publishes the run's records stored since the last read; false when there were none. */
  private async readNew(): Promise<boolean> {
    const { store, run } = this.options;
    let found = false;
    for (;;) {
      const page = await store.readRecords(run.transcriptId, {
        after: this.lastSeq,
        limit: TAIL_PAGE,
      });
      // A transcript deleted mid-run still takes its records: read them by the run's count.
      const records =
        page?.records ??
        (await store.listRunRecords(run.transcriptId, run.runId, this.live.frameCount));
      for (const record of records) {
        this.lastSeq = Math.max(this.lastSeq, record.seq);
        if (record.runId !== run.runId) continue;
        this.live.publish(plain(record));
        found = true;
      }
      if (page === null || records.length < TAIL_PAGE) return found;
    }
  }
}

/** A stored record as it was streamed: without the store's `seq` and `runId`. */
function plain({ seq: _seq, runId: _runId, ...record }: StoredRecord): TranscriptRecord {
  return record as TranscriptRecord;
}
