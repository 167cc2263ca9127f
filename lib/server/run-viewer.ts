import { sseRecord } from "./sse";

/** Bytes a viewer's stream may hold before the run stops pushing to it and waits for a read. */
export const VIEWER_BUFFER_BYTES = 64 * 1024;
/** A viewer more than this many bytes behind the run is dropped; it can reattach from its count. */
export const VIEWER_MAX_LAG_BYTES = 4 * 1024 * 1024;

/** What a viewer reads from: the run's SSE frames, encoded once and shared by every viewer. */
export interface FrameSource {
  readonly frameCount: number;
  readonly finished: boolean;
  /** Bytes of the frames from `start` to the end. */
  bytesFrom(start: number): number;
  /** The frames from `start` to the end as one buffer (cached: viewers at one cursor share it). */
  framesFrom(start: number): Uint8Array;
  detach(viewer: Viewer): void;
}

export interface ViewerLimits {
  bufferBytes: number;
  maxLagBytes: number;
}

/**
 * One connection watching a run: a cursor into the run's shared frames, never a copy of them.
 * The run pushes (once per tick, every new frame coalesced into one write) while the stream
 * wants more; a viewer whose reader stalls just falls behind, and one that falls more than
 * `maxLagBytes` behind gets `{ "kind": "dropped", "after": N }` and is closed, so a slow client
 * never holds the run or the other viewers back.
 */
export class Viewer {
  readonly stream: ReadableStream<Uint8Array>;
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;
  private closed = false;

  constructor(
    private readonly source: FrameSource,
    private cursor: number,
    header: unknown,
    private readonly limits: ViewerLimits,
  ) {
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
          controller.enqueue(sseRecord(header));
        },
        pull: () => this.pump(),
        cancel: () => this.close(false),
      },
      { highWaterMark: limits.bufferBytes, size: (chunk) => chunk.byteLength },
    );
  }

  /** Sends what the viewer has not had yet, if its stream has room; closes it at the run's end. */
  pump(): void {
    const controller = this.controller;
    if (this.closed || controller === null) return;
    const end = this.source.frameCount;
    if (this.cursor < end) {
      if ((controller.desiredSize ?? 0) <= 0) {
        if (this.source.bytesFrom(this.cursor) > this.limits.maxLagBytes) {
          const dropped = sseRecord({ kind: "dropped", after: this.cursor });
          this.close(false);
          controller.enqueue(dropped);
          controller.close();
        }
        return;
      }
      const bytes = this.source.framesFrom(this.cursor);
      // Moved first: `enqueue` may call `pull` (and so `pump`) before it returns.
      this.cursor = end;
      controller.enqueue(bytes);
    }
    if (this.source.finished) this.close(true);
  }

  /** Sends `record` as the stream's last and closes it (the run goes on without this viewer). */
  end(record: unknown): void {
    const controller = this.controller;
    if (this.closed || controller === null) return;
    this.close(false);
    controller.enqueue(sseRecord(record));
    controller.close();
  }

  private close(closeStream: boolean): void {
    if (this.closed) return;
    this.closed = true;
    if (closeStream) this.controller?.close();
    this.source.detach(this);
  }
}
