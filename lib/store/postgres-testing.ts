/**
 * Vitest glue for the PostgreSQL store tests: one throwaway cluster per test file (started in
 * `beforeAll`, stopped in `afterAll`) and a fresh database per opened store, so tests are
 * isolated and files can run in parallel workers. Where PostgreSQL is not installed, `skip`
 * says why (printed once per run) and the callers skip their suites.
 */
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { type PostgresCluster, postgresSkipReason, startCluster } from "./postgres-cluster";
import { openPostgresStore, type PostgresStore } from "./postgres-store";
import type { StoreOptions } from "./store";

export interface PostgresTesting {
  /** Why the PostgreSQL suites are skipped here, or `undefined` when they run. */
  skip: string | undefined;
  /** A new database on the file's cluster. */
  createDatabase(): Promise<string>;
  /** A store on a new database (or on `url`), connected and migrated. */
  open(options?: StoreOptions & { url?: string }): Promise<PostgresStore>;
}

export function postgresTestCluster(): PostgresTesting {
  const skip = postgresSkipReason();
  let cluster: PostgresCluster | undefined;
  if (skip !== undefined) warnOnce(skip);
  else {
    beforeAll(async () => {
      cluster = await startCluster();
    }, 120_000);
    afterAll(() => cluster?.stop());
  }
  const createDatabase = () => {
    if (cluster === undefined) throw new Error("The PostgreSQL test cluster is not running.");
    return cluster.createDatabase();
  };
  return {
    skip,
    createDatabase,
    async open(options = {}) {
      const { url, ...storeOptions } = options;
      const store = openPostgresStore({
        ...storeOptions,
        connectionString: url ?? (await createDatabase()),
        maxConnections: 4,
      });
      await store.ready();
      return store;
    },
  };
}

/**
 * The skip message, printed by the first test file of a run only: test files run in worker
 * processes of one Vitest process, so a marker named after it says whether one already did.
 */
function warnOnce(message: string): void {
  try {
    writeFileSync(join(tmpdir(), `wirescope-pg-skip-${process.ppid}`), "", { flag: "wx" });
  } catch {
    return;
  }
  console.warn(`wirescope: ${message}`);
}
