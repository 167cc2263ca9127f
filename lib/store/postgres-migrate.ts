/**
 * Applying `POSTGRES_MIGRATIONS` at start. The whole check-and-apply runs in one transaction
 * that first takes a transaction-level advisory lock, so two instances starting on a fresh
 * database at once take turns: the second finds the first one's versions and applies nothing.
 */
import type { PoolClient } from "pg";
import { StoreError } from "./errors";
import { POSTGRES_MIGRATIONS } from "./postgres-schema";

/** The advisory lock key ("wire" in ASCII): any constant works if every instance uses the same. */
const MIGRATION_LOCK = 0x77697265;

export async function migrate(
  client: PoolClient,
  now: number,
  migrations: readonly string[] = POSTGRES_MIGRATIONS,
): Promise<number> {
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS wirescope_migrations (
      version INTEGER PRIMARY KEY,
      applied_at BIGINT NOT NULL
    )`);
    const result = await client.query<{ version: number | null }>(
      "SELECT max(version) AS version FROM wirescope_migrations",
    );
    const version = result.rows[0]?.version ?? 0;
    if (version > migrations.length) {
      throw new StoreError(
        "invalid",
        `The database has schema version ${version}, newer than this build's ${migrations.length}. ` +
          "Upgrade Wirescope or point DATABASE_URL at another database.",
      );
    }
    for (const [index, migration] of migrations.slice(version).entries()) {
      await client.query(migration);
      await client.query("INSERT INTO wirescope_migrations (version, applied_at) VALUES ($1, $2)", [
        version + index + 1,
        now,
      ]);
    }
    await client.query("COMMIT");
    return migrations.length;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  }
}
