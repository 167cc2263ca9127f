/**
 * The memory store's runs (docs/live-runs.md) and instances: run rows, leases, stop requests and the
 * fence that keeps an instance that lost its run from writing to it. SQLite and PostgreSQL
 * keep the same in tables (`sqlite-runs.ts`, `postgres-runs.ts`).
 */
import { runTakenOver, StoreError, transcriptNotFound } from "./errors";
import type { RunInfo, RunRecordBatch, StoredRecord, StoreRunMethods } from "./store";

interface RunEntry extends RunInfo {
  instanceId: string | null;
}

/** What the run methods read of the store's transcripts. */
interface MemoryRunContext<Row extends { runId: string }> {
  /** Throws when the store is closed. */
  open(): void;
  transcripts: ReadonlyMap<string, { records: readonly Row[] }>;
  decode(rows: Row[]): StoredRecord[];
}

export function memoryRunMethods<Row extends { runId: string }>({
  open,
  transcripts,
  decode,
}: MemoryRunContext<Row>): StoreRunMethods & {
  /** A batch written for an instance that no longer holds its run (`RunRecordBatch.instanceId`). */
  fence(batch: RunRecordBatch): StoreError | undefined;
  /** Drops a purged transcript's runs (the databases' `ON DELETE CASCADE`). */
  forgetRuns(transcriptId: string): void;
  /** Whether the instance's lease is live at `at` (strictly before its end). */
  leaseLive(instanceId: string, at: number): boolean;
} {
  const runs = new Map<string, RunEntry>();
  /** Instance id → lease end (ms). */
  const leases = new Map<string, number>();

  function unfinished(): RunEntry[] {
    return [...runs.values()]
      .filter((run) => run.endedAt === null)
      .sort((a, b) => a.startedAt - b.startedAt || (a.runId < b.runId ? -1 : 1));
  }

  const leaseLive = (instanceId: string, at: number) => (leases.get(instanceId) ?? 0) > at;

  /** No live instance runs it: none named, or its lease ended by `at`. */
  function orphaned(run: RunEntry, at: number): boolean {
    return run.instanceId === null || !leaseLive(run.instanceId, at);
  }

  function fence({ runId, instanceId }: RunRecordBatch): StoreError | undefined {
    if (instanceId === undefined) return undefined;
    const run = runs.get(runId);
    const held = run !== undefined && run.endedAt === null && run.instanceId === instanceId;
    return held ? undefined : runTakenOver(runId, instanceId);
  }

  return {
    fence,
    leaseLive,

    forgetRuns(transcriptId) {
      for (const [runId, run] of runs) if (run.transcriptId === transcriptId) runs.delete(runId);
    },

    async recordRunStart(run) {
      open();
      if (!transcripts.has(run.transcriptId)) throw transcriptNotFound(run.transcriptId);
      if (runs.has(run.runId))
        throw new StoreError("conflict", `Run ${JSON.stringify(run.runId)} exists.`);
      runs.set(run.runId, { ...run, endedAt: null, instanceId: null, stopRequestedAt: null });
    },

    async claimRun(claim) {
      open();
      if (!transcripts.has(claim.transcriptId)) throw transcriptNotFound(claim.transcriptId);
      if (runs.has(claim.runId))
        throw new StoreError("conflict", `Run ${JSON.stringify(claim.runId)} exists.`);
      if (claim.exclusive) {
        const holder = unfinished().find((run) => run.transcriptId === claim.transcriptId);
        if (holder !== undefined) return { ok: false, runId: holder.runId };
      }
      const { runId, transcriptId, startedAt, instanceId } = claim;
      runs.set(runId, {
        runId,
        transcriptId,
        startedAt,
        endedAt: null,
        instanceId,
        stopRequestedAt: null,
      });
      return { ok: true };
    },

    async renewLease(instanceId, expiresAt) {
      open();
      leases.set(instanceId, expiresAt);
    },

    async leaseUntil(instanceId) {
      open();
      return leases.get(instanceId) ?? null;
    },

    async forgetEndedLeases(before) {
      open();
      let forgotten = 0;
      for (const [instanceId, until] of leases)
        if (until < before && leases.delete(instanceId)) forgotten++;
      return forgotten;
    },

    async listOrphanedRuns(at) {
      open();
      return unfinished()
        .filter((run) => orphaned(run, at))
        .map(runInfo);
    },

    async adoptRun(runId, instanceId, at) {
      open();
      const run = runs.get(runId);
      if (run === undefined || run.endedAt !== null || !orphaned(run, at)) return false;
      run.instanceId = instanceId;
      return true;
    },

    async requestRunStop(runId, at) {
      open();
      const run = runs.get(runId);
      if (run === undefined || run.endedAt !== null) return null;
      if (run.stopRequestedAt !== null) return "already";
      run.stopRequestedAt = at;
      return "requested";
    },

    async listStopRequests(instanceId) {
      open();
      return unfinished()
        .filter((run) => run.instanceId === instanceId && run.stopRequestedAt !== null)
        .map((run) => run.runId);
    },

    async listInstanceRuns(instanceId) {
      open();
      return unfinished()
        .filter((run) => run.instanceId === instanceId)
        .map((run) => run.runId);
    },

    async listLiveRuns() {
      open();
      return unfinished().map((run) => ({
        ...runInfo(run),
        instanceId: run.instanceId,
        records: (transcripts.get(run.transcriptId)?.records ?? []).filter(
          (row) => row.runId === run.runId,
        ).length,
      }));
    },

    async recordRunEnd(runId, endedAt) {
      open();
      const run = runs.get(runId);
      if (run !== undefined && run.endedAt === null) run.endedAt = endedAt;
    },

    async getRunInfo(runId) {
      open();
      const run = runs.get(runId);
      return run === undefined ? null : runInfo(run);
    },

    async listUnfinishedRuns() {
      open();
      return unfinished().map(runInfo);
    },

    async listRunRecords(transcriptId, runId, after) {
      open();
      const rows = transcripts.get(transcriptId)?.records ?? [];
      return decode(
        rows.filter((row) => row.runId === runId).slice(Math.max(0, Math.floor(after))),
      );
    },
  };
}

function runInfo({ runId, transcriptId, startedAt, endedAt, stopRequestedAt }: RunEntry): RunInfo {
  return { runId, transcriptId, startedAt, endedAt, stopRequestedAt };
}
