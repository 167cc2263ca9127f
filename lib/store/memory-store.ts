/**
 * A `Store` in process memory: for tests and as a fallback when no database is available.
 * Records and relics are kept as JSON text, like a database would, so callers get the same
 * copies and round-trip semantics as from `sqlite-store.ts`.
 */
import { randomUUID } from "node:crypto";
import { StoreError, storeClosed, transcriptNotFound } from "./errors";
import { normalizeListOptions, normalizeRecordPage, pageIndexes } from "./list-options";
import { memoryMessages } from "./memory-messages";
import { memoryRunMethods } from "./memory-runs";
import type { SharedMessages } from "./message-trie";
import { checkTitle, newTranscriptMeta, toSummary } from "./meta";
import { recordPages, type SharedPageRead } from "./record-pages";
import { encodeRelicValue, isLive, relicExpiry } from "./relic";
import { foldForSearch, matchSnippet, SEARCH_BLOCK_MAX, searchPiece } from "./search-text";
import type {
  ListOptions,
  RecordPage,
  RunBatchResult,
  Store,
  StoredRecord,
  StoreOptions,
  TranscriptMeta,
  TranscriptRecord,
} from "./store";
import { decodeStoredJson, encodeRecord } from "./stored-json";
import { transcriptRunsOf } from "./transcript-runs";

interface Row {
  kind: TranscriptRecord["kind"];
  seq: number;
  runId: string;
  body: string;
  /** A request's last message node (see `message-trie.ts`). */
  node?: number;
  turn?: number;
}

interface Entry {
  /** JSON of the `TranscriptMeta`. */
  meta: string;
  deletedAt: number | null;
  records: Row[];
  /** Folded searchable text per block (see `search-text.ts`). */
  blocks: Map<string, string>;
  /** The instance writing it as an import, until it is shown (`importInstance`). */
  importInstance?: string;
}

interface Relic {
  value: string;
  expiresAt: number | null;
}

export function createMemoryStore(options: StoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  const newId = options.newId ?? randomUUID;
  const transcripts = new Map<string, Entry>();
  const relics = new Map<string, Relic>();
  const messages = memoryMessages();
  let closed = false;

  function open(): void {
    if (closed) throw storeClosed();
  }

  function live(id: string): Entry | undefined {
    const entry = transcripts.get(id);
    return entry && entry.deletedAt === null ? entry : undefined;
  }

  function append(
    transcriptId: string,
    runId: string,
    records: readonly TranscriptRecord[],
  ): StoredRecord[] {
    const entry = transcripts.get(transcriptId);
    if (!entry) throw transcriptNotFound(transcriptId);
    // Encode everything first: a bad record must leave the transcript untouched.
    const encoded = records.map((record) => encodeRecord(record));
    const stored: StoredRecord[] = [];
    encoded.forEach(({ body, messages: bodies, turn }, index) => {
      const kind = (records[index] as TranscriptRecord).kind;
      const row: Row = { kind, seq: entry.records.length + 1, runId, body };
      if (bodies !== undefined) row.node = messages.intern(transcriptId, bodies);
      if (turn !== undefined) row.turn = turn;
      entry.records.push(row);
      // The record as given, not decoded back from its body.
      stored.push({ ...(records[index] as TranscriptRecord), seq: row.seq, runId });
      const piece = searchPiece(runId, records[index] as TranscriptRecord);
      if (piece)
        entry.blocks.set(
          piece.blockKey,
          boundedBlock(entry.blocks.get(piece.blockKey), piece.text),
        );
    });
    if (records.length > 0) entry.meta = JSON.stringify({ ...meta(entry), updatedAt: now() });
    return stored;
  }

  function readPage(
    id: string,
    range: ReturnType<typeof normalizeRecordPage>,
    shared?: SharedMessages,
  ): RecordPage | null {
    const entry = live(id);
    if (!entry) return null;
    const page = entry.records.slice(...pageIndexes(entry.records.length, range));
    const records = messages.decode(page, shared);
    return { meta: meta(entry), records, recordCount: entry.records.length };
  }

  const { fence, forgetRuns, leaseLive, ...runMethods } = memoryRunMethods({
    open,
    transcripts,
    decode: (rows) => messages.decode(rows),
  });

  const meta = (entry: Entry) => decodeStoredJson(entry.meta, "transcript meta") as TranscriptMeta;
  const relicKey = (namespace: string, key: string) => JSON.stringify([namespace, key]);

  return {
    async createTranscript(input) {
      open();
      const created = newTranscriptMeta(input, input.id ?? newId(), now());
      if (transcripts.has(created.id)) {
        throw new StoreError("conflict", `Transcript ${JSON.stringify(created.id)} exists.`);
      }
      if (created.parentId !== undefined && !transcripts.has(created.parentId)) {
        throw new StoreError(
          "invalid",
          `Fork parent ${JSON.stringify(created.parentId)} is unknown.`,
        );
      }
      const { importInstance } = input;
      const entry: Entry = {
        meta: JSON.stringify(created),
        // An import is hidden from its start until it is finished.
        deletedAt: importInstance === undefined ? null : created.createdAt,
        records: [],
        blocks: new Map(),
      };
      if (importInstance !== undefined) entry.importInstance = importInstance;
      transcripts.set(created.id, entry);
      return meta(entry);
    },

    async getTranscript(id) {
      open();
      const entry = live(id);
      if (!entry) return null;
      return { meta: meta(entry), records: messages.decode(entry.records) };
    },

    async readRecords(id, pageOptions) {
      open();
      return readPage(id, normalizeRecordPage(pageOptions));
    },

    readRecordPages(id, pagesOptions) {
      open();
      const read: SharedPageRead = async (...args) => {
        open();
        return readPage(...args);
      };
      return recordPages(read, id, pagesOptions);
    },

    async getConversation(id) {
      open();
      const entry = live(id);
      if (!entry) return null;
      let last: Row | undefined;
      for (const row of entry.records)
        if (row.turn !== undefined && (last === undefined || row.turn >= (last.turn ?? 0)))
          last = row;
      const rows = entry.records.filter((row) => row === last || row.kind === "event");
      return { meta: meta(entry), records: messages.decode(rows) };
    },

    async listTranscriptRuns(id) {
      open();
      const entry = live(id);
      return entry ? transcriptRunsOf(messages.decode(entry.records)) : null;
    },

    async listTranscripts(listOptions?: ListOptions) {
      open();
      const { query, limit, offset, source } = normalizeListOptions(listOptions);
      const matches = [...transcripts.values()]
        .filter((entry) => entry.deletedAt === null)
        .map((entry) => ({ entry, meta: meta(entry) }))
        .filter(({ meta }) => source === undefined || meta.source === source)
        .filter(
          ({ entry, meta }) =>
            query === undefined ||
            foldForSearch(meta.title).includes(query) ||
            [...entry.blocks.values()].some((text) => text.includes(query)),
        )
        .sort(
          (a, b) =>
            b.meta.updatedAt - a.meta.updatedAt ||
            b.meta.createdAt - a.meta.createdAt ||
            (a.meta.id < b.meta.id ? 1 : a.meta.id > b.meta.id ? -1 : 0),
        );
      return matches.slice(offset, offset + limit).map(({ entry, meta }) => {
        const summary = toSummary(meta, entry.records.length);
        if (query === undefined || foldForSearch(meta.title).includes(query)) return summary;
        for (const text of entry.blocks.values()) {
          const match = matchSnippet(text, query);
          if (match !== undefined) return { ...summary, match };
        }
        return summary;
      });
    },

    async renameTranscript(id, title) {
      open();
      const entry = live(id);
      if (!entry) return null;
      const renamed = { ...meta(entry), title: checkTitle(title), updatedAt: now() };
      entry.meta = JSON.stringify(renamed);
      return renamed;
    },

    async deleteTranscript(id) {
      open();
      const entry = live(id);
      if (!entry) return false;
      entry.deletedAt = now();
      return true;
    },

    async restoreTranscript(id) {
      open();
      const entry = transcripts.get(id);
      // Not one being purged (-1): its purge has begun.
      if (!entry || entry.deletedAt === null || entry.deletedAt < 0) return false;
      entry.deletedAt = null;
      delete entry.importInstance;
      return true;
    },

    async purgeTranscript(id) {
      open();
      const entry = transcripts.get(id);
      if (!entry || entry.deletedAt === null) return false;
      // Everything only it referenced goes with it, as the databases' cascades do.
      transcripts.delete(id);
      messages.forget(id);
      forgetRuns(id);
      return true;
    },

    async claimAbandonedImports(at, except) {
      open();
      const claimed: string[] = [];
      for (const [id, entry] of transcripts) {
        const writer = entry.importInstance;
        if (writer === undefined || writer === except) continue;
        if (entry.deletedAt === null || leaseLive(writer, at)) continue;
        entry.deletedAt = -1;
        claimed.push(id);
      }
      return claimed.sort();
    },

    async appendRecords(transcriptId, runId, records: readonly TranscriptRecord[]) {
      open();
      return append(transcriptId, runId, records);
    },

    async appendRunRecords(batches) {
      open();
      return batches.map((batch): RunBatchResult => {
        const fenced = fence(batch);
        if (fenced !== undefined) return { ok: false, error: fenced };
        try {
          const stored = append(batch.transcriptId, batch.runId, batch.records);
          return { ok: true, lastSeq: stored.at(-1)?.seq ?? 0 };
        } catch (error) {
          return { ok: false, error };
        }
      });
    },

    ...runMethods,

    async relicGet(namespace, key) {
      open();
      const relic = relics.get(relicKey(namespace, key));
      if (!relic) return undefined;
      if (!isLive(relic.expiresAt, now())) {
        relics.delete(relicKey(namespace, key));
        return undefined;
      }
      return decodeStoredJson(relic.value, "relic value");
    },

    async relicSet(namespace, key, value, ttlSeconds) {
      open();
      const at = now();
      relics.set(relicKey(namespace, key), {
        value: encodeRelicValue(value),
        expiresAt: relicExpiry(at, ttlSeconds),
      });
    },

    async relicDelete(namespace, key) {
      open();
      const relic = relics.get(relicKey(namespace, key));
      relics.delete(relicKey(namespace, key));
      return relic !== undefined && isLive(relic.expiresAt, now());
    },

    async close() {
      closed = true;
    },
  };
}

/** A block's searchable text with one more piece, bounded as in SQLite (`SEARCH_BLOCK_MAX`). */
function boundedBlock(text = "", piece: string): string {
  return text.length >= SEARCH_BLOCK_MAX ? text : (text + piece).slice(0, SEARCH_BLOCK_MAX);
}
