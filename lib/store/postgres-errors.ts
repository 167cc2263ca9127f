/**
 * PostgreSQL failures as `StoreError`s, and a connection string fit to print. Kept apart from
 * `postgres-store.ts` so the rules are testable without a server.
 */
import { StoreError } from "./errors";

interface DriverError {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

/** SQLSTATEs of text PostgreSQL cannot store (a NUL character) or cannot index (too long). */
const INVALID_INPUT = new Set(["22021", "22P05", "54000", "22001"]);

/** Why the database cannot be used now, as a client is told it, and when to ask again. */
interface Unusable {
  why: string;
  retryAfterSeconds: number;
}

const unreachable: Unusable = {
  why: "the database server cannot be reached",
  retryAfterSeconds: 5,
};
const lostConnection: Unusable = {
  why: "the connection to the database broke",
  retryAfterSeconds: 2,
};
const outOfResources: Unusable = {
  why: "the database server is out of resources (disk or memory)",
  retryAfterSeconds: 10,
};

/**
 * The failures that say nothing about the request, only about the database right now (a retry
 * may well succeed): Node's codes for a server that cannot be reached, and PostgreSQL's
 * SQLSTATEs for a server out of connections or resources, shutting down or starting, a
 * statement or lock wait cut off by its time limit, a transaction that lost to a concurrent one,
 * a standby (read-only after a failover). All answer 503, never a 500 that reads like a bug.
 */
const UNUSABLE: ReadonlyMap<string, Unusable> = new Map([
  ...["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"].map(
    (code) => [code, unreachable] as const,
  ),
  ["ECONNRESET", lostConnection],
  ["EPIPE", lostConnection],
  ["57P01", { why: "the database server is shutting down", retryAfterSeconds: 5 }],
  ["57P02", { why: "the database server is restarting after a crash", retryAfterSeconds: 5 }],
  ["57P03", { why: "the database server is not accepting connections yet", retryAfterSeconds: 5 }],
  ["57P04", { why: "the database was dropped", retryAfterSeconds: 30 }],
  ["57P05", lostConnection],
  ["3D000", { why: "the database does not exist", retryAfterSeconds: 30 }],
  ["28P01", { why: "the database refused the login", retryAfterSeconds: 30 }],
  ["28000", { why: "the database refused the login", retryAfterSeconds: 30 }],
  ["53300", { why: "the database has too many connections", retryAfterSeconds: 2 }],
  ["53400", { why: "the database reached a configured limit", retryAfterSeconds: 5 }],
  ["53000", outOfResources],
  ["53100", outOfResources],
  ["53200", outOfResources],
  // statement_timeout (30 s, set per connection) or a cancel by an administrator.
  ["57014", { why: "a database statement ran past its time limit", retryAfterSeconds: 5 }],
  ["55P03", { why: "a database lock wait ran past its time limit", retryAfterSeconds: 2 }],
  // Only under a serializable default isolation (the store's writes use the default).
  ["40001", { why: "a concurrent database transaction conflicted", retryAfterSeconds: 1 }],
  ["40P01", { why: "a concurrent database transaction deadlocked", retryAfterSeconds: 1 }],
  ["25006", { why: "the database is read-only (a standby?)", retryAfterSeconds: 10 }],
]);

/** pg's and pg-pool's words for a connection that broke, timed out or never came. */
const UNUSABLE_MESSAGES: readonly [RegExp, Unusable][] = [
  // pg-pool: every connection of the pool stayed busy for `connectionTimeoutMillis`.
  [
    /timeout exceeded when trying to connect/i,
    { why: "every database connection of this server is busy", retryAfterSeconds: 1 },
  ],
  [/timeout expired|connect(ion)? timeout/i, unreachable],
  [/Connection terminated|not queryable|Query read timeout/i, lostConnection],
];

/** Why a driver error leaves the database unusable for now, or undefined when it does not. */
export function unusableOf(error: unknown): Unusable | undefined {
  const code = driverCode(error);
  if (code !== undefined) {
    const known = UNUSABLE.get(code);
    if (known !== undefined) return known;
    // Class 08: connection exceptions (the server refused or dropped the connection).
    if (/^08[0-9A-Z]{3}$/.test(code)) return lostConnection;
  }
  const message = String((error as DriverError | null)?.message ?? error);
  return UNUSABLE_MESSAGES.find(([pattern]) => pattern.test(message))?.[1];
}

export const UNIQUE_VIOLATION = "23505";
export const FOREIGN_KEY_VIOLATION = "23503";

export function driverCode(error: unknown): string | undefined {
  const code = (error as DriverError | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * A driver error as the store reports it: bad text → `invalid`, a database that cannot be used
 * now (`unusableOf`) → `unavailable` (with `where`, the connection string without its password,
 * in the message, and `why` for the client). Anything else (a bug, a constraint the caller maps
 * itself) is returned as it is.
 */
export function storeErrorOf(error: unknown, where: string): unknown {
  if (error instanceof StoreError) return error;
  const code = driverCode(error);
  const message = String((error as DriverError | null)?.message ?? error);
  if (code !== undefined && INVALID_INPUT.has(code)) {
    return new StoreError("invalid", `PostgreSQL cannot store this value: ${message}`, {
      cause: error,
    });
  }
  const unusable = unusableOf(error);
  if (unusable === undefined) return error;
  return new StoreError("unavailable", `Cannot use the PostgreSQL database ${where}: ${message}`, {
    cause: error,
    ...unusable,
  });
}

/**
 * `postgres://user@host:5432/db`: the URL without its password (nor a `password` parameter),
 * for logs and errors. A string that is not a URL is not echoed at all (it may be a password).
 */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(not a URL)";
  }
  if (parsed.password !== "") parsed.password = "***";
  for (const name of [...parsed.searchParams.keys()])
    if (/pass|secret|key|token/i.test(name)) parsed.searchParams.set(name, "***");
  return parsed.toString();
}
