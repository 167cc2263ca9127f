import { randomUUID } from "node:crypto";
import type { ProtocolEvent } from "../protocol/events";
import type { RunInfo, Store } from "../store";
import { runTag } from "./run-tag";

/**
 * Marks the runs no live instance is running as interrupted (reason `crash`, docs/live-runs.md): runs
 * whose instance's lease has ended (it was killed, or lost the database) or that name none.
 * An instance calls it when it starts, before runs of its own, and again with each lease
 * renewal, so the runs of another instance that died are marked once its lease ends, never
 * while it is alive. Each run is adopted first (`adoptRun`), so two instances sweeping at
 * once mark it once; it then gets an `interrupt` record, so no transcript ends mid-block
 * without a reason, and is noted as ended. Returns the runs it marked. A run whose transcript
 * is gone is only ended. Runs `instanceId` holds itself are never marked: its lease may have
 * lapsed while the store was out of reach, but it is running them.
 */
export async function interruptCrashedRuns(
  store: Store,
  now: () => number = Date.now,
  instanceId: string = randomUUID(),
): Promise<RunInfo[]> {
  const marked: RunInfo[] = [];
  const orphaned = await store.listOrphanedRuns(now());
  if (orphaned.length === 0) return marked;
  // Never its own: this instance is alive (a store outage let its lease lapse, nothing more).
  const own = new Set(await store.listInstanceRuns(instanceId));
  for (const run of orphaned) {
    if (own.has(run.runId)) continue;
    if (!(await store.adoptRun(run.runId, instanceId, now()))) continue;
    const event: ProtocolEvent = {
      type: "interrupt",
      id: `${runTag(run.runId)}-crash`,
      timestamp: now(),
      reason: "crash",
    };
    await store
      .appendRecords(run.transcriptId, run.runId, [{ kind: "event", event }])
      .catch(() => undefined);
    await store.recordRunEnd(run.runId, now());
    marked.push(run);
  }
  return marked;
}
