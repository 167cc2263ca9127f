/** Runs in progress on this server: a stop request interrupts one by id, and a transcript takes one run at a time. */
const active = new Map<string, AbortController>();
const busy = new Set<string>();

export function registerRun(runId: string, controller: AbortController): () => void {
  active.set(runId, controller);
  return () => active.delete(runId);
}

/** Interrupts a run with reason "user"; false when no such run is in progress. */
export function stopRun(runId: string): boolean {
  const controller = active.get(runId);
  if (controller === undefined) return false;
  controller.abort("user");
  return true;
}

/**
 * Marks a transcript as having a run in progress; false when it already has one (two runs
 * appending to one conversation would interleave their records). Returns the release.
 */
export function claimTranscript(transcriptId: string): (() => void) | null {
  if (busy.has(transcriptId)) return null;
  busy.add(transcriptId);
  return () => busy.delete(transcriptId);
}
