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
  /**
   * A networked database (PostgreSQL) that cannot be used now: unreachable, out of connections,
   * a statement cut off by its time limit, … (`why`); `jsonRoute` answers 503 with `Retry-After`.
   */
  | "unavailable"
  /**
   * The store is set up wrong (a DATABASE_URL that is no PostgreSQL URL): no request can work
   * until the setting is fixed and the server restarted; `jsonRoute` answers 500 naming it.
   */
  | "misconfigured"
  /** A run's records from an instance that no longer holds the run (`runTakenOver`). */
  | "taken_over";

export interface StoreErrorOptions {
  cause?: unknown;
  /**
   * For `unavailable`: the cause in a few words fit to show a client ("too many connections"),
   * with no host, user or query in it (the message, which may hold them, goes to the log).
   */
  why?: string;
  /** For `unavailable`: how many seconds a client had best wait before asking again. */
  retryAfterSeconds?: number;
}

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  readonly why: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(code: StoreErrorCode, message: string, options: StoreErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "StoreError";
    this.code = code;
    this.why = options.why;
    this.retryAfterSeconds = options.retryAfterSeconds;
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
