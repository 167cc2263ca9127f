/**
 * What a store rejects with. `code` lets a route map failures to HTTP statuses
 * (`not_found` → 404, `conflict` → 409, `invalid` → 400) without matching on messages.
 */
export type StoreErrorCode =
  | "not_found"
  | "conflict"
  | "invalid"
  | "closed"
  | "corrupt"
  /** A networked database (PostgreSQL) that cannot be reached; `jsonRoute` answers 503. */
  | "unavailable"
  /** A run's records from an instance that no longer holds the run (`runTakenOver`). */
  | "taken_over";

export class StoreError extends Error {
  readonly code: StoreErrorCode;

  constructor(code: StoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StoreError";
    this.code = code;
  }
}

export function transcriptNotFound(id: string): StoreError {
  return new StoreError("not_found", `Transcript ${JSON.stringify(id)} does not exist.`);
}

export function storeClosed(): StoreError {
  return new StoreError("closed", "The store is closed; open a new one to keep using it.");
}

/**
 * A batch refused because its run is no longer the writing instance's: another instance adopted
 * it (and marked it crashed) after this one's lease ended — it stalled, it was not dead.
 */
export function runTakenOver(runId: string, instanceId: string): StoreError {
  return new StoreError(
    "taken_over",
    `Run ${JSON.stringify(runId)} is no longer instance ${JSON.stringify(instanceId)}'s: another instance took it over after its lease ended.`,
  );
}
