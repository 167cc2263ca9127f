/**
 * The PostgreSQL store's runs and instances (docs/live-runs.md): run rows, claims (one unfinished run per
 * conversation, under the transcript's row lock), leases, orphaned runs and stop requests.
 * Part of `openPostgresStore`, through its pool helpers.
 */
import type pg from "pg";
import { runTakenOver, StoreError, transcriptNotFound } from "./errors";
import type { PreparedBatch } from "./postgres-append";
import { driverCode, FOREIGN_KEY_VIOLATION, UNIQUE_VIOLATION } from "./postgres-errors";
import type { PostgresMessages } from "./postgres-messages";
import { PG, READ_TRANSACTION } from "./postgres-queries";
import { type LiveRunRow, type RecordRow, type RunRow, rowToRun } from "./sqlite-queries";
import type { RunClaimResult, StoreRunMethods } from "./store";

export interface PostgresAccess {
  query<Row extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
  ): Promise<pg.QueryResult<Row>>;
  transaction<T>(begin: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  messages: PostgresMessages;
}

export function postgresRunMethods({
  query,
  transaction,
  messages,
}: PostgresAccess): StoreRunMethods {
  return {
    async recordRunStart(run) {
      try {
        await query(PG.insertRun, [run.runId, run.transcriptId, run.startedAt]);
      } catch (error) {
        const code = driverCode(error);
        if (code === UNIQUE_VIOLATION)
          throw new StoreError("conflict", `Run ${JSON.stringify(run.runId)} exists.`, {
            cause: error,
          });
        if (code === FOREIGN_KEY_VIOLATION) throw transcriptNotFound(run.transcriptId);
        throw error;
      }
    },

    async recordRunEnd(runId, endedAt) {
      await query(PG.endRun, [runId, endedAt]);
    },

    async claimRun(claim) {
      try {
        return await transaction("BEGIN", async (client): Promise<RunClaimResult> => {
          const locked = await client.query(PG.lockTranscript, [claim.transcriptId]);
          if (locked.rowCount === 0) throw transcriptNotFound(claim.transcriptId);
          if (claim.exclusive) {
            const holder = (
              await client.query<{ run_id: string }>(PG.busyRun, [claim.transcriptId])
            ).rows[0];
            if (holder !== undefined) return { ok: false, runId: holder.run_id };
          }
          await client.query(PG.claimRun, [
            claim.runId,
            claim.transcriptId,
            claim.startedAt,
            claim.instanceId,
          ]);
          return { ok: true };
        });
      } catch (error) {
        if (driverCode(error) === UNIQUE_VIOLATION)
          throw new StoreError("conflict", `Run ${JSON.stringify(claim.runId)} exists.`, {
            cause: error,
          });
        throw error;
      }
    },

    async renewLease(instanceId, expiresAt) {
      await query(PG.renewLease, [instanceId, expiresAt]);
    },

    async leaseUntil(instanceId) {
      const row = (await query<{ lease_until: string | number }>(PG.leaseUntil, [instanceId]))
        .rows[0];
      return row === undefined ? null : Number(row.lease_until);
    },

    async forgetEndedLeases(before) {
      return (await query(PG.forgetEndedLeases, [before])).rowCount ?? 0;
    },

    async listOrphanedRuns(at) {
      return (await query<RunRow>(PG.orphanedRuns, [at])).rows.map(rowToRun);
    },

    async adoptRun(runId, instanceId, at) {
      return ((await query(PG.adoptRun, [runId, instanceId, at])).rowCount ?? 0) > 0;
    },

    async requestRunStop(runId, at) {
      // A second ask racing the first waits for its row lock, then finds the stop asked for.
      if (((await query(PG.requestStop, [runId, at])).rowCount ?? 0) > 0) return "requested";
      const row = (await query<RunRow>(PG.selectRun, [runId])).rows[0];
      return row?.ended_at === null ? "already" : null;
    },

    async listStopRequests(instanceId) {
      return (await query<{ run_id: string }>(PG.stopRequests, [instanceId])).rows.map(
        (row) => row.run_id,
      );
    },

    async listInstanceRuns(instanceId) {
      return (await query<{ run_id: string }>(PG.instanceRuns, [instanceId])).rows.map(
        (row) => row.run_id,
      );
    },

    async listLiveRuns() {
      return (await query<LiveRunRow>(PG.liveRuns, [])).rows.map((row) => ({
        ...rowToRun(row),
        instanceId: row.instance_id,
        records: row.records,
      }));
    },

    async getRunInfo(runId) {
      const row = (await query<RunRow>(PG.selectRun, [runId])).rows[0];
      return row ? rowToRun(row) : null;
    },

    async listUnfinishedRuns() {
      return (await query<RunRow>(PG.unfinishedRuns, [])).rows.map(rowToRun);
    },

    listRunRecords(transcriptId, runId, after) {
      return transaction(READ_TRANSACTION, async (client) => {
        const values = [transcriptId, runId, Math.max(0, Math.floor(after))];
        const rows = (await client.query<RecordRow>(PG.selectRunRecords, values)).rows;
        return messages.decode(client, transcriptId, rows, false);
      });
    },
  };
}

/**
 * The batches of an append with those written for an instance that no longer holds their run
 * (`RunRecordBatch.instanceId`: adopted by another instance, or ended) turned into `taken_over`
 * failures. In the append's transaction, first: one round trip per writing instance (a commit
 * has one), none when no batch names an instance; the rows stay locked until the commit.
 */
export async function fenceRuns(
  client: pg.PoolClient,
  prepared: readonly PreparedBatch[],
): Promise<readonly PreparedBatch[]> {
  const runsOf = new Map<string, Set<string>>();
  for (const { batch } of prepared) {
    if (batch.instanceId === undefined) continue;
    const runs = runsOf.get(batch.instanceId) ?? new Set<string>();
    runs.add(batch.runId);
    runsOf.set(batch.instanceId, runs);
  }
  if (runsOf.size === 0) return prepared;
  const held = new Set<string>();
  for (const [instanceId, runs] of runsOf) {
    const rows = await client.query<{ run_id: string }>(PG.heldRuns, [[...runs], instanceId]);
    for (const row of rows.rows) held.add(`${instanceId}\n${row.run_id}`);
  }
  return prepared.map((item) => {
    const { runId, instanceId } = item.batch;
    if (instanceId === undefined || held.has(`${instanceId}\n${runId}`)) return item;
    return { batch: item.batch, error: runTakenOver(runId, instanceId) };
  });
}
