/**
 * The store's types for runs (docs/live-runs.md): what it tracks of each, how an instance
 * claims one, and the grouped appends of live runs' records. Part of the `Store` contract
 * (`store.ts`, which re-exports them).
 */
import type { TranscriptRecord } from "../protocol/records";

/** A run as the store tracks it (docs/live-runs.md): started, and finished once `endedAt` is set. */
export interface RunInfo {
  runId: string;
  transcriptId: string;
  /** ms since epoch. */
  startedAt: number;
  /** ms since epoch; `null` while the run is in flight (or was when its server died). */
  endedAt: number | null;
  /**
   * ms since epoch: when a stop was first asked for through the store (`requestRunStop`, by
   * any instance); `null` when none was. A repeated stop of another instance's run is told
   * apart from the first by it.
   */
  stopRequestedAt: number | null;
}

/**
 * A run start that names the server instance running it (several instances may share one
 * database). `exclusive`: refused while the transcript has another unfinished run — the
 * one-run-per-conversation rule, checked and recorded in one step so two instances racing
 * for a conversation cannot both win.
 */
export interface RunClaim {
  runId: string;
  transcriptId: string;
  startedAt: number;
  instanceId: string;
  exclusive: boolean;
}

/** `ok: false`: the transcript's unfinished run that holds it. */
export type RunClaimResult = { ok: true } | { ok: false; runId: string };

/** An unfinished run with the instance running it and its records so far. */
export interface LiveRunInfo extends RunInfo {
  /** `null`: started without one (`recordRunStart`), so no instance vouches for it. */
  instanceId: string | null;
  records: number;
}

/** One run's records for `appendRunRecords`. */
export interface RunRecordBatch {
  transcriptId: string;
  runId: string;
  records: readonly TranscriptRecord[];
  /**
   * `JSON.stringify(records[i])` where the caller made it already (a live run's SSE frame), so
   * a record is serialised once; stored as the record's body (a request's is made apart).
   */
  json?: readonly (string | undefined)[];
  /**
   * The instance writing them (a fence): when set, the batch is stored only while the run is
   * unfinished and still this instance's, checked in the append's own transaction; otherwise it
   * fails with `taken_over` and nothing of it is written. An instance that stalled past its
   * lease, whose runs another instance adopted meanwhile, so writes nothing after their end.
   */
  instanceId?: string;
}

/** Per batch: the last `seq` it got, or why it was not stored (the others are unaffected). */
export type RunBatchResult = { ok: true; lastSeq: number } | { ok: false; error: unknown };
