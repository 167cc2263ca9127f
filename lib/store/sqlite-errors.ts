/**
 * What a SQLite failure means for the person using the app. better-sqlite3 throws its errors
 * with SQLite's result code (`SQLITE_FULL`, `SQLITE_IOERR_WRITE`, …); a route answers these
 * with a status and a sentence naming the cause (`app/api/http.ts`), not a bare 500.
 */
export interface SqliteProblem {
  status: number;
  /** The cause, for the client: no path, no SQL. */
  why: string;
  /** Set when asking again soon may work. */
  retryAfterSeconds?: number;
}

const PROBLEMS: Readonly<Record<string, SqliteProblem>> = {
  SQLITE_FULL: {
    status: 507,
    why: "the disk holding the data directory (WIRESCOPE_DATA_DIR) is full; free some space and try again",
  },
  SQLITE_BUSY: {
    status: 503,
    why: "the database is busy: another process is writing to it",
    retryAfterSeconds: 1,
  },
  SQLITE_LOCKED: {
    status: 503,
    why: "the database is busy: another process is writing to it",
    retryAfterSeconds: 1,
  },
  SQLITE_READONLY: {
    status: 503,
    why: "the database cannot be written: the data directory or its database file is read-only",
  },
  SQLITE_IOERR: {
    status: 503,
    why: "the disk failed to read or write the database (an I/O error)",
  },
  SQLITE_CANTOPEN: {
    status: 503,
    why: "the database file cannot be opened (is the data directory still there?)",
  },
};

/** The problem a SQLite error stands for, or undefined for any other error. */
export function sqliteProblem(error: unknown): SqliteProblem | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !code.startsWith("SQLITE_")) return undefined;
  // Extended codes (`SQLITE_IOERR_WRITE`, `SQLITE_BUSY_SNAPSHOT`) share their primary's meaning.
  return PROBLEMS[code.split("_", 2).join("_")];
}
