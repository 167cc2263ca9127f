import type { Store } from "../store";

/**
 * "Watched from another instance" (`WIRESCOPE_STOP_UNWATCHED_AFTER_S`, docs/live-runs.md): an
 * instance following another's run for viewers of its own renews a mark in the store — a lease
 * named after the run — and the run's own instance reads it before stopping the run for having
 * no viewer, so a run watched on any instance is watched.
 */

/** How long one mark holds: a follower renews it every `WATCH_RENEW_MS` while it has viewers. */
export const WATCH_MARK_MS = 3000;
export const WATCH_RENEW_MS = 1000;

function markName(runId: string): string {
  return `watch:${runId}`;
}

/** Notes that the run has viewers on this instance, until `now + WATCH_MARK_MS`. */
export function markWatched(store: Store, runId: string, now: number): Promise<void> {
  return store.renewLease(markName(runId), now + WATCH_MARK_MS);
}

/**
 * Until when another instance said the run has viewers there (ms since epoch); `null` when none
 * did, or the store keeps no such marks.
 */
export async function watchedElsewhereUntil(store: Store, runId: string): Promise<number | null> {
  return (await store.leaseUntil?.(markName(runId))) ?? null;
}
