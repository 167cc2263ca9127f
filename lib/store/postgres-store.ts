/**
 * A `Store` on PostgreSQL through node-postgres (`pg`), a pool of connections; only the
 * `postgres-*` modules import the driver (runs and instances: `postgres-runs.ts`; the LISTEN
 * connection: `postgres-listen.ts`). Several servers may share one database (DATABASE_URL):
 *
 * - Migrations run at open, under an advisory lock (`postgres-migrate.ts`); every call waits for
 *   them, so two instances starting on a fresh database at once are safe.
 * - An append first bumps the transcript's `last_seq` (`UPDATE … RETURNING`), which holds that
 *   row's lock until commit: appends to one transcript from any connection or instance queue
 *   there, so `seq` counts from 1 with no gaps, and each append is one transaction.
 * - Reads that take several queries run in one REPEATABLE READ transaction: the records match
 *   the meta even while another instance appends.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { StoreError, storeClosed, transcriptNotFound } from "./errors";
import { keyedQueue } from "./keyed-queue";
import { normalizeListOptions, normalizeRecordPage } from "./list-options";
import type { SharedMessages } from "./message-trie";
import { checkTitle, newTranscriptMeta, toSummary } from "./meta";
import { appendAtOnce, positioned, postgresAppender, prepareBatch } from "./postgres-append";
import { clockSkew, clockSkewWarning } from "./postgres-clock";
import {
  driverCode,
  FOREIGN_KEY_VIOLATION,
  redactDatabaseUrl,
  storeErrorOf,
  UNIQUE_VIOLATION,
} from "./postgres-errors";
import { appendWatcher } from "./postgres-listen";
import { postgresMessages } from "./postgres-messages";
import { migrate } from "./postgres-migrate";
import { openPool, withClient } from "./postgres-pool";
import { PG, pgRowToMeta, pgSearchText, READ_TRANSACTION } from "./postgres-queries";
import { fenceRuns, postgresRunMethods } from "./postgres-runs";
import { PG_TRANSCRIPT_RUNS } from "./postgres-transcript-runs";
import { recordPages } from "./record-pages";
import { encodeRelicValue, isLive, relicExpiry } from "./relic";
import { foldForSearch, matchSnippet } from "./search-text";
import type { ListedRow, RecordRow, RelicRow, TranscriptRow } from "./sqlite-queries";
import type { RecordPage, Store, StoreOptions } from "./store";
import { decodeStoredJson, encodeRecord } from "./stored-json";
import { type TranscriptRunRow, transcriptRunsFromRows } from "./transcript-runs";

/** Records a purge deletes per statement (`purgeTranscript`). */
const PURGE_SLICE = 5_000;

export interface PostgresStoreOptions extends StoreOptions {
  /** `postgres://user:password@host:port/database` (also `postgresql://`). */
  connectionString: string;
  /** Connections in the pool (default 10). */
  maxConnections?: number;
}

export interface PostgresStore extends Store {
  /** The connection string without its password. */
  readonly where: string;
  /** Settles once connected and migrated; rejects with why not (every call rejects then too). */
  ready(): Promise<void>;
}

/** Opens the pool at once; connecting and migrating happen in the background (`ready`). */
export function openPostgresStore(options: PostgresStoreOptions): PostgresStore {
  const now = options.now ?? Date.now;
  const newId = options.newId ?? randomUUID;
  const where = redactDatabaseUrl(options.connectionString);
  const pool = openPool(options.connectionString, options.maxConnections ?? 10, where);
  const messages = postgresMessages();
  const appender = postgresAppender(messages, now);
  // Appends to one transcript from this store run in call order, as with SQLite: the pool
  // would otherwise let a later call reach the row lock first.
  const inOrder = keyedQueue();
  let closed = false;
  let ending: Promise<void> | undefined;

  const migrated = withClient(pool, (client) => migrate(client, now())).catch((error: unknown) => {
    throw storeErrorOf(error, where);
  });
  // Rejections are reported to callers; this keeps an unawaited one from crashing the process.
  migrated.catch(() => undefined);
  // A server's own clock only (a test's injected one is not a clock to compare).
  if (options.now === undefined)
    void migrated
      .then(() => withClient(pool, (client) => clockSkew(client, Date.now)))
      .then((skew) => {
        const warning = clockSkewWarning(skew, where);
        if (warning !== undefined) console.error(warning);
      })
      .catch(() => undefined);

  /** One page in one read transaction (the records match the meta and the count). */
  function readPage(
    id: string,
    range: ReturnType<typeof normalizeRecordPage>,
    shared?: SharedMessages,
  ): Promise<RecordPage | null> {
    return transaction(READ_TRANSACTION, async (client) => {
      const row = await liveTranscript(client, id);
      if (row === undefined) return null;
      const text = range.fromEnd ? PG.selectPageBackward : PG.selectPageForward;
      const values = [id, range.after, range.before, range.limit];
      const rows = (await client.query<RecordRow>(text, values)).rows;
      if (range.fromEnd) rows.reverse();
      return {
        meta: pgRowToMeta(row),
        records: await messages.decode(client, id, rows, false, shared),
        recordCount: row.last_seq,
      };
    });
  }

  async function usable(): Promise<void> {
    if (closed) throw storeClosed();
    await migrated;
  }

  async function query<Row extends pg.QueryResultRow>(
    statement: string | pg.QueryConfig,
    values?: unknown[],
  ) {
    await usable();
    try {
      return await pool.query<Row>(statement, values);
    } catch (error) {
      throw storeErrorOf(error, where);
    }
  }

  async function transaction<T>(
    begin: string,
    work: (client: pg.PoolClient) => Promise<T>,
  ): Promise<T> {
    await usable();
    return withClient(
      pool,
      async (client, lost) => {
        try {
          await client.query(begin);
          const result = await work(client);
          await client.query("COMMIT");
          return result;
        } catch (error) {
          await client.query("ROLLBACK").catch(lost);
          throw storeErrorOf(error, where);
        }
      },
      (error) => storeErrorOf(error, where),
    );
  }

  const appends = appendWatcher({
    connectionString: options.connectionString,
    where,
    usable,
    closed: () => closed,
  });

  async function liveTranscript(client: pg.PoolClient, id: string) {
    const row = (await client.query<TranscriptRow>(PG.selectTranscript, [id])).rows[0];
    return row === undefined || row.deleted_at !== null ? undefined : row;
  }

  return {
    where,

    ready: usable,

    async createTranscript(input) {
      const meta = newTranscriptMeta(input, input.id ?? newId(), now());
      try {
        await query(PG.insertTranscript, [
          meta.id,
          meta.title,
          foldForSearch(meta.title),
          meta.createdAt,
          meta.dialect,
          meta.model.provider,
          meta.model.id,
          JSON.stringify(meta.system),
          JSON.stringify(meta.tools),
          meta.parentId ?? null,
          meta.forkPoint ?? null,
          meta.definition === undefined ? null : JSON.stringify(meta.definition),
          meta.source,
          input.importInstance ?? null,
        ]);
      } catch (error) {
        const code = driverCode(error);
        if (code === UNIQUE_VIOLATION)
          throw new StoreError("conflict", `Transcript ${JSON.stringify(meta.id)} exists.`, {
            cause: error,
          });
        if (code === FOREIGN_KEY_VIOLATION)
          throw new StoreError(
            "invalid",
            `Fork parent ${JSON.stringify(meta.parentId)} is unknown.`,
            { cause: error },
          );
        throw error;
      }
      return meta;
    },

    getTranscript(id) {
      return transaction(READ_TRANSACTION, async (client) => {
        const row = await liveTranscript(client, id);
        if (row === undefined) return null;
        const rows = (await client.query<RecordRow>(PG.selectRecords, [id])).rows;
        return { meta: pgRowToMeta(row), records: await messages.decode(client, id, rows, true) };
      });
    },

    async readRecords(id, pageOptions) {
      return readPage(id, normalizeRecordPage(pageOptions));
    },

    readRecordPages(id, pagesOptions) {
      return recordPages(readPage, id, pagesOptions);
    },

    getConversation(id) {
      return transaction(READ_TRANSACTION, async (client) => {
        const row = await liveTranscript(client, id);
        if (row === undefined) return null;
        const rows = (await client.query<RecordRow>(PG.selectEvents, [id])).rows;
        const last = (await client.query<RecordRow>(PG.selectLastTurn, [id])).rows[0];
        if (last !== undefined) {
          const at = rows.findIndex((event) => event.seq > last.seq);
          rows.splice(at === -1 ? rows.length : at, 0, last);
        }
        return { meta: pgRowToMeta(row), records: await messages.decode(client, id, rows, false) };
      });
    },

    listTranscriptRuns(id) {
      return transaction(READ_TRANSACTION, async (client) => {
        if ((await liveTranscript(client, id)) === undefined) return null;
        // The planner cannot tell how many records a run's range holds: its estimate makes the
        // statement look costly enough to compile (JIT), which took seconds, not the query.
        await client.query("SET LOCAL jit = off");
        const rows = (await client.query<TranscriptRunRow>(PG_TRANSCRIPT_RUNS, [id])).rows;
        return transcriptRunsFromRows(rows);
      });
    },

    async listTranscripts(listOptions) {
      const { query: folded, limit, offset, source } = normalizeListOptions(listOptions);
      const search = folded === undefined ? null : pgSearchText(folded);
      const result = await query<ListedRow>(PG.listTranscripts, [
        search,
        limit,
        offset,
        source ?? null,
      ]);
      return result.rows.map((row) => {
        const summary = toSummary(pgRowToMeta(row), row.last_seq);
        const match =
          search === null || row.match_window === null
            ? undefined
            : matchSnippet(row.match_window, search);
        return match === undefined ? summary : { ...summary, match };
      });
    },

    async renameTranscript(id, title) {
      const checked = checkTitle(title);
      const values = [id, checked, foldForSearch(checked), now()];
      const row = (await query<TranscriptRow>(PG.rename, values)).rows[0];
      return row ? pgRowToMeta(row) : null;
    },

    async deleteTranscript(id) {
      return ((await query(PG.softDelete, [id, now()])).rowCount ?? 0) > 0;
    },

    async restoreTranscript(id) {
      return ((await query(PG.restore, [id])).rowCount ?? 0) > 0;
    },

    async purgeTranscript(id) {
      // Marked first (a restore leaves it), then records a slice at a time (short statements,
      // short locks), then the rest by cascade.
      if (((await query(PG.claimPurge, [id])).rowCount ?? 0) === 0) return false;
      while (((await query(PG.purgeRecords, [id, PURGE_SLICE])).rowCount ?? 0) === PURGE_SLICE);
      messages.forget(id);
      return ((await query(PG.purgeTranscript, [id])).rowCount ?? 0) > 0;
    },

    async claimAbandonedImports(at, except) {
      const { rows } = await query<{ id: string }>(PG.claimAbandonedImports, [at, except ?? null]);
      return rows.map((row) => row.id).sort();
    },

    async appendRecords(transcriptId, runId, records) {
      if (records.length === 0) {
        if ((await query(PG.exists, [transcriptId])).rowCount === 0)
          throw transcriptNotFound(transcriptId);
        return [];
      }
      // Encoded before a connection is taken: a bad record fails the call before any write.
      const encoded = records.map((record) => encodeRecord(record));
      return inOrder([transcriptId], async () => {
        if (encoded.every((item) => item.messages === undefined)) {
          // No message tree to extend: one statement, its own transaction.
          const statement = appendAtOnce({ transcriptId, runId, records }, encoded, now());
          const result = await query<{ last_seq: number }>(statement);
          return positioned({ transcriptId, runId, records }, result.rows[0]?.last_seq);
        }
        try {
          return await transaction("BEGIN", (client) =>
            appender.append(client, { transcriptId, runId, records }, encoded),
          );
        } catch (error) {
          messages.forget(transcriptId);
          throw error;
        }
      });
    },

    async appendRunRecords(batches) {
      if (batches.length === 0) {
        await usable();
        return [];
      }
      // Encoded before a connection is taken: a bad record fails its batch alone.
      const prepared = batches.map(prepareBatch);
      const forgetAll = () => {
        for (const batch of batches) messages.forget(batch.transcriptId);
      };
      return inOrder(
        batches.map((batch) => batch.transcriptId),
        async () => {
          try {
            return await transaction("BEGIN", async (client) =>
              appender.writeBatches(client, await fenceRuns(client, prepared)),
            );
          } catch (error) {
            forgetAll();
            const lost =
              error instanceof StoreError && ["unavailable", "closed"].includes(error.code);
            if (lost) throw error;
          }
          // A statement failed and took the transaction with it (rare: text PostgreSQL cannot
          // hold). Again, each batch in its own savepoint, so that batch fails alone.
          try {
            return await transaction("BEGIN", async (client) =>
              appender.writeBatches(client, await fenceRuns(client, prepared), {
                savepoints: true,
                where,
              }),
            );
          } catch (error) {
            forgetAll();
            throw error;
          }
        },
      );
    },

    ...postgresRunMethods({ query, transaction, messages }),

    watchAppends(listener) {
      return appends.watch(listener);
    },

    async relicGet(namespace, key) {
      const row = (await query<RelicRow>(PG.relicGet, [namespace, key])).rows[0];
      if (!row || !isLive(row.expires_at, now())) return undefined;
      return decodeStoredJson(row.value, "relic value");
    },

    async relicSet(namespace, key, value, ttlSeconds) {
      const at = now();
      const encoded = encodeRelicValue(value);
      const expiresAt = relicExpiry(at, ttlSeconds);
      await transaction("BEGIN", async (client) => {
        // Expired values go here (indexed), so keys nobody reads again do not pile up.
        await client.query(PG.relicSweep, [at]);
        await client.query(PG.relicSet, [namespace, key, encoded, expiresAt]);
      });
    },

    async relicDelete(namespace, key) {
      const row = (await query<Pick<RelicRow, "expires_at">>(PG.relicDelete, [namespace, key]))
        .rows[0];
      return row !== undefined && isLive(row.expires_at, now());
    },

    async close() {
      closed = true;
      ending ??= Promise.all([pool.end(), appends.end()]).then(() => undefined);
      await ending;
    },
  };
}
