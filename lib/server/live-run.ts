import type { ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import type { RecordWriter, UnstoredRecords } from "./record-writer";
import { runTag } from "./run-tag";
import { type FrameSource, Viewer, type ViewerLimits } from "./run-viewer";
import { sseFrame, sseStream } from "./sse";

export interface LiveRunOptions {
  runId: string;
  transcriptId: string;
  startedAt: number;
  writer: RecordWriter;
  /**
   * Interrupts whatever produces the records (the agent loop; a captured call, which a user's
   * stop breaks off). Absent only in tests and for a followed run (`RunTail`): `stop` is false.
   */
  controller?: AbortController;
  /** Stop the run after it has had no viewer this long (ms); 0 = never. */
  stopUnwatchedAfterMs: number;
  /**
   * Until when viewers on other instances watch it (`run-watch.ts`), asked before the run is
   * stopped for having none here; a failure to tell counts as watched.
   */
  watchedElsewhereUntil?: () => Promise<number | null>;
  limits: ViewerLimits;
  now: () => number;
}

/** A record listener (the TaskSteps stream): every record as published, then the end. */
export interface RunListener {
  record(record: TranscriptRecord): void;
  end(): void;
}

/**
 * One run in progress: its records, each stored and encoded once as an SSE frame, kept for
 * viewers that attach (or reattach) while it runs. Frames go out to every viewer once per
 * tick. Closing a viewer never stops the run; only `stop`, a failed store write, the
 * producer's own limits or (when configured) having no viewer for too long do.
 */
export class LiveRun implements FrameSource {
  readonly runId: string;
  readonly transcriptId: string;
  readonly startedAt: number;
  finished = false;
  /** Why `stop` interrupted it, if it did (a rerun sends no more messages after a user's stop). */
  stoppedBy: "user" | "disconnect" | null = null;
  private readonly frames: Uint8Array[] = [];
  /** `ends[i]`: bytes of frames 0..i together. */
  private readonly ends: number[] = [];
  private readonly viewers = new Set<Viewer>();
  private readonly listeners = new Set<RunListener>();
  private scheduled = false;
  private failed = false;
  /**
   * When a store write failed (`fail`): the records its viewers got that were not stored, its
   * `storage_failed` record last. The registry stores them at the run's end, when it can.
   */
  storageFailure: UnstoredRecords | null = null;
  private cache: { start: number; end: number; bytes: Uint8Array } | null = null;
  private unwatched: ReturnType<typeof setTimeout> | null = null;
  /** The record its viewers were ended with (`endViewers`), which later ones get at once. */
  private ended: unknown = null;

  constructor(private readonly options: LiveRunOptions) {
    this.runId = options.runId;
    this.transcriptId = options.transcriptId;
    this.startedAt = options.startedAt;
    this.watchViewers();
  }

  get frameCount(): number {
    return this.frames.length;
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  /** Whether its viewers were ended with a last record (`endViewers`). */
  get viewersEnded(): boolean {
    return this.ended !== null;
  }

  /**
   * Stores the record and sends it to every viewer. Ignored once the run has failed or ended.
   * `json`: `JSON.stringify(record)`, when the producer has made it already.
   */
  publish(record: TranscriptRecord, json: string = JSON.stringify(record)): void {
    if (this.failed || this.finished) return;
    // Serialised once: the same JSON is the SSE frame and the stored row's body.
    this.options.writer.write(record, json);
    this.send(record, json);
  }

  /**
   * A store write failed (or the store refused it: another instance took the run over):
   * viewers get an `error` (`storage_failed`) with `message`, the run is interrupted and
   * nothing it produces afterwards is sent (it could not be kept). `unstored`: what the
   * viewers got that the store did not take, kept to be stored at the end (`storageFailure`);
   * none when the run is no longer this instance's to write (taken over). False when it had
   * already failed or ended.
   */
  fail(message: string, unstored?: UnstoredRecords): boolean {
    if (this.failed || this.finished) return false;
    const event: ProtocolEvent = {
      type: "error",
      id: `${runTag(this.runId)}-storage`,
      timestamp: this.options.now(),
      code: "storage_failed",
      message,
    };
    const record: TranscriptRecord = { kind: "event", event };
    const json = JSON.stringify(record);
    this.send(record, json);
    if (unstored !== undefined) {
      this.storageFailure = {
        ...unstored,
        records: [...unstored.records, record],
        json: [...unstored.json, json],
      };
    }
    this.failed = true;
    this.options.controller?.abort("storage");
    return true;
  }

  /** Interrupts the run; false when nothing here can (it has ended, or has no controller). */
  stop(reason: "user" | "disconnect"): boolean {
    const { controller } = this.options;
    if (this.finished || controller === undefined) return false;
    this.stoppedBy ??= reason;
    controller.abort(reason);
    return true;
  }

  /** Waits for the store, then lets every viewer drain and close. */
  async finish(): Promise<void> {
    if (this.finished) return;
    await this.options.writer.flush();
    this.finished = true;
    if (this.unwatched !== null) clearTimeout(this.unwatched);
    this.flush();
    for (const listener of this.listeners) listener.end();
    this.listeners.clear();
  }

  /** A viewer from record `after` on (0 = all): the `run` record first, then the frames. */
  attach(after: number): ReadableStream<Uint8Array> {
    const header = { kind: "run", transcriptId: this.transcriptId, runId: this.runId };
    // Its viewers were ended (the transcript was deleted): one attaching now is told at once.
    if (this.ended !== null) return sseStream([header, this.ended]);
    const viewer = new Viewer(
      this,
      Math.min(after, this.frames.length),
      header,
      this.options.limits,
    );
    this.viewers.add(viewer);
    this.watchViewers();
    if (after < this.frames.length || this.finished) queueMicrotask(() => viewer.pump());
    return viewer.stream;
  }

  /**
   * Ends every viewer's stream now with `record` as its last (its transcript was deleted: the
   * run, stopped, may take a while to wind down). Listeners end with the run, as before.
   */
  endViewers(record: unknown): void {
    this.ended = record;
    for (const viewer of [...this.viewers]) viewer.end(record);
  }

  /** Records as they are published, for a stream of another shape; the returned call stops it. */
  listen(listener: RunListener): () => void {
    this.listeners.add(listener);
    this.watchViewers();
    return () => {
      this.listeners.delete(listener);
      this.watchViewers();
    };
  }

  bytesFrom(start: number): number {
    const total = this.ends.at(-1) ?? 0;
    return start === 0 ? total : total - (this.ends[start - 1] ?? 0);
  }

  framesFrom(start: number): Uint8Array {
    const end = this.frames.length;
    // One new frame (the usual tick): the frame itself, not a copy of it.
    if (end - start === 1) return this.frames[start] as Uint8Array;
    if (this.cache !== null && this.cache.start === start && this.cache.end === end)
      return this.cache.bytes;
    const bytes = new Uint8Array(this.bytesFrom(start));
    let offset = 0;
    for (let index = start; index < end; index++) {
      const frame = this.frames[index] as Uint8Array;
      bytes.set(frame, offset);
      offset += frame.byteLength;
    }
    this.cache = { start, end, bytes };
    return bytes;
  }

  detach(viewer: Viewer): void {
    this.viewers.delete(viewer);
    this.watchViewers();
  }

  private send(record: TranscriptRecord, json: string): void {
    const frame = sseFrame(json);
    this.frames.push(frame);
    this.ends.push((this.ends.at(-1) ?? 0) + frame.byteLength);
    for (const listener of this.listeners) listener.record(record);
    if (!this.scheduled) {
      this.scheduled = true;
      flushSoon(this);
    }
  }

  /** Every viewer gets what is new, coalesced into one write: once per tick, not per record. */
  flush(): void {
    this.scheduled = false;
    // A viewer that closes while pumped leaves the set; deleting during iteration is safe.
    for (const viewer of this.viewers) viewer.pump();
    this.cache = null;
  }

  /** Starts or clears the no-viewer countdown (`WIRESCOPE_STOP_UNWATCHED_AFTER_S`). */
  private watchViewers(): void {
    const { stopUnwatchedAfterMs } = this.options;
    if (this.viewers.size + this.listeners.size > 0 || this.finished) {
      if (this.unwatched !== null) clearTimeout(this.unwatched);
      this.unwatched = null;
      return;
    }
    if (stopUnwatchedAfterMs <= 0 || this.unwatched !== null) return;
    this.countDown(stopUnwatchedAfterMs);
  }

  private countDown(ms: number): void {
    this.unwatched = setTimeout(() => {
      this.unwatched = null;
      void this.stopIfUnwatched();
    }, ms);
  }

  /** The countdown ran out: stops the run unless it is watched here or on another instance. */
  private async stopIfUnwatched(): Promise<void> {
    const elsewhere = this.options.watchedElsewhereUntil;
    const until =
      elsewhere === undefined ? null : await elsewhere().catch(() => Number.POSITIVE_INFINITY);
    const watchedHere = this.viewers.size + this.listeners.size > 0;
    if (watchedHere || this.finished || this.unwatched !== null) return;
    const now = this.options.now();
    if (until === null || until <= now) {
      this.stop("disconnect");
      return;
    }
    // Watched elsewhere until `until`: the full wait starts from then.
    const { stopUnwatchedAfterMs } = this.options;
    this.countDown(
      Number.isFinite(until) ? until - now + stopUnwatchedAfterMs : stopUnwatchedAfterMs,
    );
  }
}

/** Runs with frames not yet sent, flushed together at the end of this turn of the event loop. */
let toFlush: LiveRun[] = [];

/**
 * One `setImmediate` for every run with new frames, not one per run: with hundreds of runs,
 * each tick's records of all of them go out from one callback (and one microtask checkpoint).
 * Not held back under load to put more records in each write: a run's records come in pairs
 * (a chunk and its event) and at 300 runs a run publishes a record only every ~40 ms on
 * average, so holding every flush 16 ms left 0.49 socket writes per record (0.48 without);
 * 50 ms made it 0.3 with no CPU saving the bench could tell from noise (README, "Live runs").
 */
function flushSoon(run: LiveRun): void {
  if (toFlush.length === 0) setImmediate(flushAll);
  toFlush.push(run);
}

function flushAll(): void {
  const runs = toFlush;
  toFlush = [];
  for (const run of runs) run.flush();
}
