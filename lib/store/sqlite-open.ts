/** Opening the SQLite file: its settings, and the migrations (`sqlite-schema.ts`) run in order. */
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { StoreError } from "./errors";
import { MIGRATIONS } from "./sqlite-schema";

/**
 * Pages the WAL may hold before a commit copies them into the database file (SQLite's default
 * is 1,000). A checkpoint writes each page changed since the last one once, however often it
 * changed; live runs change the same pages (their records' leaves, search blocks, the list's
 * index) commit after commit, so checkpointing less often writes fewer copies: 10–25 % less
 * store CPU in `bench/live-store.ts`. The WAL file grows to about 20 MB (4 KB pages) and stays.
 */
export const WAL_AUTOCHECKPOINT = 5000;

export function openDatabase(path: string, busyTimeoutMs: number): Database.Database {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path);
  } catch (error) {
    throw new StoreError("invalid", `Cannot open the SQLite database at ${path}.`, {
      cause: error,
    });
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT}`);
    db.pragma("foreign_keys = ON");
    // For migration 9 (search text folds NUL, which SQLite's replace() cannot match).
    db.function("wirescope_fold_nul", { deterministic: true }, (text: unknown) =>
      typeof text === "string" ? text.replaceAll("\u0000", "\ufffd") : text,
    );
    migrate(db, path);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Runs pending migrations; the version is read inside the lock so racing openers agree. */
function migrate(db: Database.Database, path: string): void {
  db.transaction(() => {
    const version = Number(db.pragma("user_version", { simple: true }));
    if (version > MIGRATIONS.length) {
      throw new StoreError(
        "invalid",
        `${path} has schema version ${version}, newer than this build's ${MIGRATIONS.length}. ` +
          "Upgrade Wirescope or point it at another database file.",
      );
    }
    MIGRATIONS.slice(version).forEach((migration, index) => {
      db.exec(migration);
      db.pragma(`user_version = ${version + index + 1}`);
    });
  }).immediate();
}
