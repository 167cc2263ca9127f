/**
 * A `Store` on one SQLite file through better-sqlite3 — only the `sqlite-*` modules import it
 * (opening and migrating: `sqlite-open.ts`; runs and instances: `sqlite-runs.ts`), so the native
 * driver never reaches a browser bundle (next.config.js also keeps it external).
 *
 * Durability: WAL with `synchronous = NORMAL`. Every `appendRecords` call is its own
 * transaction, so a killed process loses at most the call in flight and never leaves a gap
 * in `seq`; a power loss may also drop the last few commits, but never corrupts the file.
 * Writes take the lock up front (`BEGIN IMMEDIATE`), so processes sharing the file queue
 * (up to `busyTimeoutMs`) instead of failing halfway through a transaction.
 */
import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import { StoreError, storeClosed, transcriptNotFound } from "./errors";
import { normalizeListOptions, normalizeRecordPage } from "./list-options";
import type { SharedMessages } from "./message-trie";
import { checkTitle, newTranscriptMeta, toSummary } from "./meta";
import { recordPages, type SharedPageRead } from "./record-pages";
import { encodeRelicValue, isLive, relicExpiry } from "./relic";
import { foldForSearch, matchSnippet } from "./search-text";
import { sqliteAppender } from "./sqlite-append";
import { groupedWrites } from "./sqlite-grouped";
import { sqliteMessages } from "./sqlite-messages";
import { openDatabase } from "./sqlite-open";
import { rowToMeta } from "./sqlite-queries";
import { sqliteRunFence, sqliteRunMethods } from "./sqlite-runs";
import { prepareStatements } from "./sqlite-statements";
import { sqliteTranscriptRuns } from "./sqlite-transcript-runs";
import type { Store, StoreOptions, TranscriptMeta } from "./store";
import { decodeStoredJson, encodeRecord } from "./stored-json";

export const DEFAULT_DB_PATH = "data/wirescope.db";
/** Rows a purge deletes per statement (`purgeTranscript`): a few ms of work each. */
const PURGE_SLICE = 5_000;

export { WAL_AUTOCHECKPOINT } from "./sqlite-open";

export interface SqliteStoreOptions extends StoreOptions {
  /** A file path (its directory is created) or ":memory:". Defaults to `DEFAULT_DB_PATH`. */
  path?: string;
  /** How long a write waits for another process holding the lock. */
  busyTimeoutMs?: number;
}

export interface SqliteDiagnostics {
  path: string;
  journalMode: string;
  /** 1 = NORMAL. */
  synchronous: number;
  foreignKeys: boolean;
  userVersion: number;
  /** WAL pages written before a commit checkpoints them into the file (`WAL_AUTOCHECKPOINT`). */
  walAutocheckpoint: number;
  /** "ok" when `PRAGMA integrity_check` finds nothing wrong. */
  integrity: string;
}

export interface SqliteStore extends Store {
  readonly path: string;
  diagnostics(): Promise<SqliteDiagnostics>;
}

export function openSqliteStore(options: SqliteStoreOptions = {}): SqliteStore {
  const now = options.now ?? Date.now;
  const newId = options.newId ?? randomUUID;
  // A runtime location, not a source file: the comment keeps Next's file tracing from following
  // it (and copying the whole project into the server build).
  const path =
    options.path === ":memory:"
      ? ":memory:"
      : resolve(/* turbopackIgnore: true */ options.path ?? DEFAULT_DB_PATH);
  const db = openDatabase(path, options.busyTimeoutMs ?? 5000);
  const sql = prepareStatements(db);
  const messages = sqliteMessages(db);
  // Transcript rows: one commit for those asked for in one turn of the event loop.
  const grouped = groupedWrites(db);

  function open(): void {
    if (!db.open) throw storeClosed();
  }

  const appender = sqliteAppender(db, sql, messages, now, sqliteRunFence(sql));

  // One read transaction: the records match the meta even if another connection appends.
  const readTranscript = db.transaction((id: string) => {
    const row = sql.selectTranscript.get(id);
    if (!row || row.deleted_at !== null) return null;
    const records = messages.decode(id, sql.selectRecords.all(id), true);
    return { meta: rowToMeta(row), records };
  });

  const readPage = db.transaction(
    (id: string, range: ReturnType<typeof normalizeRecordPage>, shared?: SharedMessages) => {
      const row = sql.selectTranscript.get(id);
      if (!row || row.deleted_at !== null) return null;
      const query = range.fromEnd ? sql.selectPageBackward : sql.selectPageForward;
      const rows = query.all({ id, after: range.after, before: range.before, limit: range.limit });
      if (range.fromEnd) rows.reverse();
      return {
        meta: rowToMeta(row),
        records: messages.decode(id, rows, false, shared),
        recordCount: row.last_seq,
      };
    },
  );

  const readConversation = db.transaction((id: string) => {
    const row = sql.selectTranscript.get(id);
    if (!row || row.deleted_at !== null) return null;
    const rows = sql.selectEvents.all(id);
    const last = sql.selectLastTurn.get({ id });
    if (last !== undefined) {
      const at = rows.findIndex((event) => event.seq > last.seq);
      rows.splice(at === -1 ? rows.length : at, 0, last);
    }
    return { meta: rowToMeta(row), records: messages.decode(id, rows, false) };
  });

  const transcriptRuns = sqliteTranscriptRuns(db);
  const readRuns = db.transaction((id: string) => {
    const row = sql.selectTranscript.get(id);
    return !row || row.deleted_at !== null ? null : transcriptRuns(id);
  });

  // The transcript's row and its settings' row (schema 7) in one transaction.
  const insertTranscript = db.transaction((meta: TranscriptMeta, importInstance?: string) => {
    sql.insertTranscript.run({
      id: meta.id,
      title: meta.title,
      titleFolded: foldForSearch(meta.title),
      createdAt: meta.createdAt,
      dialect: meta.dialect,
      modelProvider: meta.model.provider,
      modelId: meta.model.id,
      source: meta.source,
      parentId: meta.parentId ?? null,
      forkPoint: meta.forkPoint ?? null,
      // An import is hidden from its start until it is finished.
      deletedAt: importInstance === undefined ? null : meta.createdAt,
      importInstance: importInstance ?? null,
    });
    sql.insertSettings.run({
      id: meta.id,
      system: meta.system,
      tools: JSON.stringify(meta.tools),
      definition: meta.definition === undefined ? null : JSON.stringify(meta.definition),
    });
  });

  const rename = db.transaction((id: string, title: string, at: number) => {
    const changed = sql.rename.run({ id, title, titleFolded: foldForSearch(title), now: at });
    if (changed.changes === 0) return null;
    const row = sql.selectTranscript.get(id);
    return row ? rowToMeta(row) : null;
  });

  const setRelic = db.transaction(
    (namespace: string, key: string, value: string, expiresAt: number | null, at: number) => {
      // Expired values go here (indexed), so keys nobody reads again do not pile up.
      sql.relicSweep.run(at);
      sql.relicSet.run(namespace, key, value, expiresAt);
    },
  );

  return {
    path,

    async createTranscript(input) {
      open();
      const meta = newTranscriptMeta(input, input.id ?? newId(), now());
      try {
        await grouped(() => insertTranscript(meta, input.importInstance));
      } catch (error) {
        throw constraintError(error, meta.id, meta.parentId);
      }
      return meta;
    },

    async getTranscript(id) {
      open();
      return readTranscript(id);
    },

    async readRecords(id, pageOptions) {
      open();
      return readPage(id, normalizeRecordPage(pageOptions));
    },

    readRecordPages(id, pagesOptions) {
      open();
      const read: SharedPageRead = (...args) => {
        open();
        return readPage(...args);
      };
      return recordPages(read, id, pagesOptions);
    },

    async getConversation(id) {
      open();
      return readConversation(id);
    },

    async listTranscriptRuns(id) {
      open();
      return readRuns(id);
    },

    async listTranscripts(listOptions) {
      open();
      const { query, limit, offset, source } = normalizeListOptions(listOptions);
      return sql.listTranscripts
        .all({ query: query ?? null, limit, offset, source: source ?? null })
        .map((row) => {
          const summary = toSummary(rowToMeta(row), row.last_seq);
          const match =
            query === undefined || row.match_window === null
              ? undefined
              : matchSnippet(row.match_window, query);
          return match === undefined ? summary : { ...summary, match };
        });
    },

    async renameTranscript(id, title) {
      open();
      const checked = checkTitle(title);
      return rename.immediate(id, checked, now());
    },

    async deleteTranscript(id) {
      open();
      return sql.softDelete.run(now(), id).changes > 0;
    },

    async restoreTranscript(id) {
      open();
      return sql.restore.run(id).changes > 0;
    },

    async purgeTranscript(id) {
      open();
      // Marked first: a restore between two slices must not bring back half a transcript.
      if (sql.claimPurge.run(id).changes === 0) return false;
      // Slices between turns of the event loop: a million records deleted in one statement
      // held the server for seconds. Each slice is a commit of its own; a purge cut short
      // (a crash) leaves a transcript marked as being purged, which a purge of it finishes.
      for (const slice of sql.purgeSlices) {
        while (slice.run({ id, limit: PURGE_SLICE }).changes === PURGE_SLICE)
          await new Promise((resolve) => setImmediate(resolve));
      }
      messages.forget(id);
      return sql.purgeTranscript.run(id).changes > 0;
    },

    async claimAbandonedImports(at, except) {
      open();
      return sql.claimAbandonedImports
        .all(except ?? null, at)
        .map((row) => row.id)
        .sort();
    },

    async appendRecords(transcriptId, runId, records) {
      open();
      if (records.length === 0) {
        if (!sql.transcriptExists.get(transcriptId)) throw transcriptNotFound(transcriptId);
        return [];
      }
      // Encoded before the lock is taken; a bad record fails the call before anything is written.
      const encoded = records.map((record) => encodeRecord(record));
      return appender.append(transcriptId, runId, records, encoded);
    },

    async appendRunRecords(batches) {
      open();
      return appender.appendBatches(batches);
    },

    ...sqliteRunMethods(db, sql, messages, open),

    async relicGet(namespace, key) {
      open();
      const row = sql.relicGet.get(namespace, key);
      if (!row) return undefined;
      if (!isLive(row.expires_at, now())) return undefined;
      return decodeStoredJson(row.value, "relic value");
    },

    async relicSet(namespace, key, value, ttlSeconds) {
      open();
      const at = now();
      const encoded = encodeRelicValue(value);
      const expiresAt = relicExpiry(at, ttlSeconds);
      setRelic.immediate(namespace, key, encoded, expiresAt, at);
    },

    async relicDelete(namespace, key) {
      open();
      const row = sql.relicDelete.get(namespace, key);
      return row !== undefined && isLive(row.expires_at, now());
    },

    async diagnostics() {
      open();
      return {
        path,
        journalMode: String(db.pragma("journal_mode", { simple: true })),
        synchronous: Number(db.pragma("synchronous", { simple: true })),
        foreignKeys: db.pragma("foreign_keys", { simple: true }) === 1,
        userVersion: Number(db.pragma("user_version", { simple: true })),
        walAutocheckpoint: Number(db.pragma("wal_autocheckpoint", { simple: true })),
        integrity: String(db.pragma("integrity_check", { simple: true })),
      };
    },

    async close() {
      if (db.open) db.close();
    },
  };
}

function constraintError(error: unknown, id: string, parentId: string | undefined): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "SQLITE_CONSTRAINT_PRIMARYKEY") {
    return new StoreError("conflict", `Transcript ${JSON.stringify(id)} exists.`, { cause: error });
  }
  if (code === "SQLITE_CONSTRAINT_FOREIGNKEY") {
    const message = `Fork parent ${JSON.stringify(parentId)} is unknown.`;
    return new StoreError("invalid", message, { cause: error });
  }
  return error;
}
