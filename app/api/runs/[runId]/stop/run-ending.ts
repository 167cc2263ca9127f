/** How a run that has ended ended, for the stop route's 409. */
import type { RunInfo, Store } from "@/lib/store";

/** Records read back from the transcript's end to find the run's last event. */
const LOOK_BACK = 200;

export type RunIdentity = Pick<RunInfo, "runId" | "transcriptId">;

export interface RunEnding {
  /** `interrupt`: stopped (by a user, a client gone, a crash, a time limit); `end`: it finished. */
  how: "end" | "interrupt";
  /** The interrupt's reason. */
  reason?: string;
}

/**
 * How the run ended, from its last event among the transcript's last `LOOK_BACK` records: an
 * `interrupt` says it was stopped, anything else that it ran to its end. Bounded: a run with a
 * later one after it reads as `end`, never as a scan of the whole transcript. `null` when the
 * transcript is deleted (its runs are not shown, as by the events route).
 */
export async function runEnding(store: Store, run: RunIdentity): Promise<RunEnding | null> {
  const page = await store.readRecords(run.transcriptId, { limit: LOOK_BACK, from: "end" });
  if (page === null) return null;
  const own = page.records.filter((record) => record.runId === run.runId);
  for (let index = own.length - 1; index >= 0; index--) {
    const record = own[index];
    if (record?.kind !== "event") continue;
    return record.event.type === "interrupt"
      ? { how: "interrupt", reason: record.event.reason }
      : { how: "end" };
  }
  return { how: "end" };
}

/** The 409's words: `runId: run "…" has already ended (interrupt: user).` */
export function endedMessage(runId: string, ending: RunEnding): string {
  const how = ending.reason === undefined ? ending.how : `${ending.how}: ${ending.reason}`;
  return `runId: run "${runId}" has already ended (${how}); there is nothing to stop.`;
}
