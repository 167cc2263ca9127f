/** Runs in progress on this server, so a stop request can interrupt one by id. */
const active = new Map<string, AbortController>();

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
