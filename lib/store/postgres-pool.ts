/**
 * The PostgreSQL store's pool of connections (`postgres-store.ts`): how it connects and parses
 * values, and how a connection is checked out so the server ending it never crashes the process.
 */
import pg from "pg";

// BIGINT (ms timestamps, seq, node ids) as numbers: every value this store writes is a safe integer.
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8
      ? Number
      : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/** A pool that connects on first use; `where` (no password) names it in the log. */
export function openPool(connectionString: string, max: number, where: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max,
    types,
    application_name: "wirescope",
    connectionTimeoutMillis: 10_000,
    // Nothing from outside holds a connection for long: a stuck statement is cut off.
    statement_timeout: 30_000,
    idle_in_transaction_session_timeout: 30_000,
  });
  // An idle connection the server dropped: the pool replaces it; without a listener it would crash.
  pool.on("error", (error) => {
    console.error(`wirescope: a PostgreSQL connection to ${where} failed:`, error.message);
  });
  // The server's word that it is ending a connection can also come while the connection is
  // checked out, or after it was released as broken and is closing, when the pool does not
  // listen: an `error` event with no listener is an uncaught exception. The call under way, if
  // any, fails by itself; `withClient` marks its connection broken.
  pool.on("connect", (client) => {
    client.on("error", () => undefined);
  });
  return pool;
}

/**
 * `work` on a connection of its own, released when it settles; `lost` marks the connection
 * broken (released and closed, not reused). The server ending it (a restart,
 * `pg_terminate_backend`) is reported as an `error` event on it, which the pool listens for
 * only while the connection is idle: it marks it broken here, and the statement under way
 * fails by itself. `connectError`: what a failed checkout is thrown as.
 */
export async function withClient<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient, lost: () => void) => Promise<T>,
  connectError: (error: unknown) => unknown = (error) => error,
): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw connectError(error);
  }
  let broken = false;
  const lost = () => {
    broken = true;
  };
  client.on("error", lost);
  try {
    return await work(client, lost);
  } finally {
    client.off("error", lost);
    client.release(broken);
  }
}
