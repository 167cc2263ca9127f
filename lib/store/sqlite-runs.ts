/**
 * The SQLite store's runs and instances (docs/live-runs.md): run rows, claims (one unfinished run per
 * conversation, checked and written under one write lock), leases, orphaned runs and stop
 * requests. Part of `openSqliteStore`, on its connection and statements.
 */
import type Database from "better-sqlite3";
import { runTakenOver, StoreError, transcriptNotFound } from "./errors";
import { groupedWrites } from "./sqlite-grouped";
import type { SqliteMessages } from "./sqlite-messages";
import { rowToRun } from "./sqlite-queries";
import type { SqliteStatements } from "./sqlite-statements";
import type { RunClaim, RunClaimResult, RunRecordBatch, StoreRunMethods } from "./store";

export function sqliteRunMethods(
  db: Database.Database,
  sql: SqliteStatements,
  messages: SqliteMessages,
  open: () => void,
): StoreRunMethods {
  // Claims and ends asked for before the pending microtasks have run share one commit (runs
  // ending on one record commit, their last records' `flush`, end together; starts let go on
  // by one transcript commit may claim together): `bench/live-runs.ts --load` made 364 commits
  // for 810 claims and ends, one each before. A microtask, unlike `setImmediate`, does not wait
  // for the next turn of the event loop.
  const soon = groupedWrites(db, queueMicrotask);
  // The busy check and the insert under one write lock: instances racing for a conversation
  // queue on it, and the second one sees the first one's run (in the same commit too). No
  // savepoint: the insert is its one write, and a failing statement is undone alone.
  const claimRun = (claim: RunClaim): RunClaimResult => {
    if (claim.exclusive) {
      const holder = sql.busyRun.get(claim.transcriptId);
      if (holder !== undefined) return { ok: false, runId: holder.run_id };
    }
    sql.claimRun.run(claim.runId, claim.transcriptId, claim.startedAt, claim.instanceId);
    return { ok: true };
  };

  return {
    async recordRunStart(run) {
      open();
      try {
        sql.insertRun.run(run.runId, run.transcriptId, run.startedAt);
      } catch (error) {
        throw runConstraintError(error, run.runId, run.transcriptId);
      }
    },

    async claimRun(claim) {
      open();
      try {
        return await soon(() => claimRun(claim));
      } catch (error) {
        throw runConstraintError(error, claim.runId, claim.transcriptId);
      }
    },

    async renewLease(instanceId, expiresAt) {
      open();
      sql.renewLease.run(instanceId, expiresAt);
    },

    async leaseUntil(instanceId) {
      open();
      return sql.leaseUntil.get(instanceId)?.lease_until ?? null;
    },

    async forgetEndedLeases(before) {
      open();
      return sql.forgetEndedLeases.run(before).changes;
    },

    async listOrphanedRuns(at) {
      open();
      return sql.orphanedRuns.all({ now: at }).map(rowToRun);
    },

    async adoptRun(runId, instanceId, at) {
      open();
      return sql.adoptRun.run({ runId, instance: instanceId, now: at }).changes > 0;
    },

    async requestRunStop(runId, at) {
      open();
      if (sql.requestStop.run(at, runId).changes > 0) return "requested";
      return sql.selectRun.get(runId)?.ended_at === null ? "already" : null;
    },

    async listStopRequests(instanceId) {
      open();
      return sql.stopRequests.all(instanceId).map((row) => row.run_id);
    },

    async listInstanceRuns(instanceId) {
      open();
      return sql.instanceRuns.all(instanceId).map((row) => row.run_id);
    },

    async listLiveRuns() {
      open();
      return sql.liveRuns.all().map((row) => ({
        ...rowToRun(row),
        instanceId: row.instance_id,
        records: row.records,
      }));
    },

    async recordRunEnd(runId, endedAt) {
      open();
      // Settles once committed: a client that sees the run's stream end may start the next run
      // on the conversation at once, and the run is released only once its end is stored.
      await soon(() => sql.endRun.run(endedAt, runId));
    },

    async getRunInfo(runId) {
      open();
      const row = sql.selectRun.get(runId);
      return row ? rowToRun(row) : null;
    },

    async listUnfinishedRuns() {
      open();
      return sql.unfinishedRuns.all().map(rowToRun);
    },

    async listRunRecords(transcriptId, runId, after) {
      open();
      const rows = sql.selectRunRecords.all(transcriptId, runId, Math.max(0, Math.floor(after)));
      return messages.decode(transcriptId, rows, false);
    },
  };
}

/**
 * Why a batch written for an instance may not be stored (`RunRecordBatch.instanceId`): the
 * run is no longer that instance's, or has ended. Called inside the append's write
 * transaction, so no adoption can come between the check and the records.
 */
export function sqliteRunFence(
  sql: SqliteStatements,
): (batch: RunRecordBatch) => StoreError | undefined {
  return ({ runId, instanceId }) =>
    instanceId === undefined || sql.heldRun.get(runId, instanceId) !== undefined
      ? undefined
      : runTakenOver(runId, instanceId);
}

function runConstraintError(error: unknown, runId: string, transcriptId: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "SQLITE_CONSTRAINT_PRIMARYKEY")
    return new StoreError("conflict", `Run ${JSON.stringify(runId)} exists.`, { cause: error });
  if (code === "SQLITE_CONSTRAINT_FOREIGNKEY") return transcriptNotFound(transcriptId);
  return error;
}
