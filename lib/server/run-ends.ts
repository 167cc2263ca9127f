/**
 * Storing a run's end (`RunRegistry.finish`). When the store fails (the database is down, the
 * disk full), the end is tried again every `retryMs` until stored: a run whose end was never
 * noted stayed "in progress" for as long as its instance lived, its conversation refused every
 * new run. A run whose writes failed first gets what its viewers got and the store did not
 * take, `storage_failed` last, so a reload does not show its last turn cut off with no reason.
 */
import { type Store, StoreError } from "../store";
import { describeError } from "./describe-error";
import type { UnstoredRecords } from "./record-writer";

/**
 * A store's answer that ends trying to store a run's end: the run is another instance's now,
 * its transcript is gone, or the store was closed (the server is stopping).
 */
const nothingToEnd = (error: unknown): boolean =>
  error instanceof StoreError &&
  (error.code === "taken_over" || error.code === "not_found" || error.code === "closed");

/** `RunEnds.retryMs`'s default. */
const END_RETRY_MS = 2_000;

/**
 * A run's end not stored yet: what its viewers got that was not stored, `storage_failed` last
 * (until stored), then `endedAt`.
 */
export interface PendingEnd {
  runId: string;
  transcriptId: string;
  store: Store;
  endedAt: number;
  failure: UnstoredRecords | null;
}

export class RunEnds {
  /** How often an end the store failed to take is tried again, ms. */
  retryMs = END_RETRY_MS;
  /** Ends the store has not taken yet, by run id. */
  private readonly pending = new Map<string, PendingEnd>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `instanceId`: the writing instance, the fence of what is stored for a failed run. */
  constructor(private readonly instanceId: string) {}

  /** Stores the end now, or keeps trying in the background: settles after the first try. */
  async record(end: PendingEnd): Promise<void> {
    if (!(await this.recordEnd(end, true))) this.retry(end);
  }

  /**
   * Stores what a run's end needs: if a write failed, what its viewers got that the store did
   * not take, `storage_failed` last (else a reload shows its last turn cut off with no
   * reason); then its end. False
   * when the store failed: tried again later. A run another instance took over meanwhile, or
   * whose transcript was deleted, is that instance's or nobody's to end: nothing more is tried.
   */
  private async recordEnd(end: PendingEnd, first: boolean): Promise<boolean> {
    const { runId, transcriptId, store } = end;
    try {
      if (end.failure !== null) await this.storeUnstored(end, end.failure);
      end.failure = null;
      await store.recordRunEnd(runId, end.endedAt);
      if (!first) console.error(`wirescope: recorded the end of run ${runId} at last.`);
      return true;
    } catch (error) {
      if (nothingToEnd(error)) return true;
      if (first)
        console.error(
          `wirescope: could not record the end of run ${runId} (${transcriptId}); trying again every ${this.retryMs / 1000} s:`,
          describeError(error),
        );
      return false;
    }
  }

  /**
   * Appends what a failed run's viewers got and the store did not take, but none of it twice: a
   * commit reported failed may still have been applied (PostgreSQL's answer to `COMMIT` lost
   * with its connection), so what the store holds past `after` is skipped. Records it refuses
   * for good (`invalid`) are left out and the end is recorded all the same.
   */
  private async storeUnstored(end: PendingEnd, unstored: UnstoredRecords): Promise<void> {
    const { runId, transcriptId, store } = end;
    const held = await store.listRunRecords(transcriptId, runId, unstored.after ?? 0);
    const skip = Math.min(held.length, unstored.records.length);
    const [result] = await store.appendRunRecords([
      {
        transcriptId,
        runId,
        records: unstored.records.slice(skip),
        json: unstored.json.slice(skip),
        instanceId: this.instanceId,
      },
    ]);
    if (result === undefined || result.ok) return;
    if (!(result.error instanceof StoreError && result.error.code === "invalid"))
      throw result.error;
    console.error(
      `wirescope: run ${runId}'s last records cannot be stored; its end is recorded without them:`,
      describeError(result.error),
    );
  }

  private retry(end: PendingEnd): void {
    this.pending.set(end.runId, end);
    if (this.timer !== null) return;
    this.timer = setTimeout(async () => {
      for (const pending of [...this.pending.values()]) {
        if (await this.recordEnd(pending, false)) this.pending.delete(pending.runId);
      }
      this.timer = null;
      const [next] = this.pending.values();
      if (next !== undefined) this.retry(next);
    }, this.retryMs);
    this.timer.unref?.();
  }
}
