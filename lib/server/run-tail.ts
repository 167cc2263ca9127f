import type { TranscriptRecord } from "../protocol/records";
import type { RunInfo, Store, StoredRecord } from "../store";
import { LiveRun } from "./live-run";
import type { ViewerLimits } from "./run-viewer";

/** Records read per store call while catching up. */
const TAIL_PAGE = 1000;

export interface RunTailOptions {
  store: Store;
  run: RunInfo;
  limits: ViewerLimits;
  /** How often the store is read for new records (a notifying store pokes it sooner). */
  pollMs: number;
  now: () => number;
  /** The tail stopped: the run ended, or nobody watches it any more. */
  onClose: () => void;
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
      if (await this.readNew()) {
        if (this.live.viewerCount === 0) this.close();
        return;
      }
      // Nothing new: the run may have ended. Its owner notes the end only after every record
      // is stored, so one more read after seeing it gets the last of them.
      const info = await store.getRunInfo(run.runId);
      if (info !== null && info.endedAt === null) {
        if (this.live.viewerCount === 0) this.close();
        return;
      }
      while (await this.readNew()) {}
      await this.live.finish();
      this.close();
    } catch (error) {
      console.error("wirescope: could not follow a run:", String(error));
      await this.live.finish();
      this.close();
    }
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
