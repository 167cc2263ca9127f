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
  | "unavailable";

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
