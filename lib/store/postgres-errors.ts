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

/** Node's codes for a server that cannot be reached, and pg's for a connection that broke. */
const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "57P01",
  "57P02",
  "57P03",
  "3D000",
  "28P01",
  "28000",
]);

export const UNIQUE_VIOLATION = "23505";
export const FOREIGN_KEY_VIOLATION = "23503";

export function driverCode(error: unknown): string | undefined {
  const code = (error as DriverError | null)?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * A driver error as the store reports it: bad text → `invalid`, an unreachable or refusing
 * server → `unavailable` (with `where`, the connection string without its password). Anything
 * else (a bug, a constraint the caller maps itself) is returned as it is.
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
  if (
    (code !== undefined && UNREACHABLE.has(code)) ||
    /Connection terminated|timeout expired|connect(ion)? timeout/i.test(message)
  ) {
    return new StoreError(
      "unavailable",
      `Cannot use the PostgreSQL database ${where}: ${message}`,
      {
        cause: error,
      },
    );
  }
  return error;
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
