import type { ProtocolEvent } from "../protocol/events";
import type { RunInfo, Store } from "../store";

/**
 * Marks every run the store still has in flight as interrupted (reason `crash`, spec §10):
 * call it once when the server starts, before it starts runs of its own. Each such run gets
 * an `interrupt` record appended, so no transcript ends mid-block without a reason, and is
 * noted as ended. Returns the runs it marked. A run whose transcript is gone is only ended.
 */
export async function interruptCrashedRuns(
  store: Store,
  now: () => number = Date.now,
): Promise<RunInfo[]> {
  const runs = await store.listUnfinishedRuns();
  for (const run of runs) {
    const event: ProtocolEvent = {
      type: "interrupt",
      id: `${run.runId.slice(0, 8)}-crash`,
      timestamp: now(),
      reason: "crash",
    };
    await store
      .appendRecords(run.transcriptId, run.runId, [{ kind: "event", event }])
      .catch(() => undefined);
    await store.recordRunEnd(run.runId, now());
  }
  return runs;
}
