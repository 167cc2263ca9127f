/**
 * Which store the server opens (`store-instance.ts`): PostgreSQL when `DATABASE_URL` is set to a
 * `postgres://` or `postgresql://` URL, SQLite under the data directory otherwise. A value that
 * is set but unusable is refused with a message naming DATABASE_URL and never echoing it whole
 * (it may hold a password).
 */
import { join } from "node:path";
import { StoreError } from "../store/errors";
import { redactDatabaseUrl } from "../store/postgres-errors";

export type StoreChoice =
  | { kind: "sqlite"; path: string }
  /** `shown`: the URL without its password, for logs. */
  | { kind: "postgres"; url: string; shown: string };

export function chooseStore(env: Record<string, string | undefined>, dataDir: string): StoreChoice {
  const url = env.DATABASE_URL?.trim() ?? "";
  if (url === "") return { kind: "sqlite", path: join(dataDir, "wirescope.db") };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badUrl("is not a URL (expected postgres://user:password@host:5432/database)");
  }
  if (parsed.protocol !== "postgres:" && parsed.protocol !== "postgresql:")
    throw badUrl(
      `has the scheme "${parsed.protocol.slice(0, 20)}"; only postgres:// and postgresql:// are ` +
        "supported (unset it for SQLite)",
    );
  if (parsed.hostname === "" && !parsed.searchParams.has("host"))
    throw badUrl("names no host (postgres://user:password@host:5432/database)");
  return { kind: "postgres", url, shown: redactDatabaseUrl(url) };
}

function badUrl(why: string): StoreError {
  return new StoreError("misconfigured", `DATABASE_URL ${why}.`);
}
