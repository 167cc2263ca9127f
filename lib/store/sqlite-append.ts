/**
 * Appending on SQLite (`sqlite-store.ts`): one run's records in the caller's transaction, and
 * the grouped commit of every live run's records (`appendRunRecords`).
 */
import type Database from "better-sqlite3";
import { type StoreError, transcriptNotFound } from "./errors";
import { searchPartWrites } from "./search-parts";
import { searchPiece } from "./search-text";
import type { SqliteMessages } from "./sqlite-messages";
import type { SqliteStatements } from "./sqlite-statements";
import type {
  Clock,
  RunBatchResult,
  RunRecordBatch,
  StoredRecord,
  TranscriptRecord,
} from "./store";
import { type EncodedRecord, encodeRecord } from "./stored-json";

/** Rows per multi-row INSERT: a statement per few records, not one per record. */
const ROWS_PER_INSERT = 8;
const RECORD_ROW = "(?, ?, ?, ?, ?, ?, ?)";

type Prepared = { batch: RunRecordBatch; encoded: EncodedRecord[] } | { error: unknown };

export function sqliteAppender(
  db: Database.Database,
  sql: SqliteStatements,
  messages: SqliteMessages,
  now: Clock,
  /** Why a batch written for an instance may not be stored (`sqlite-runs.ts`), checked in the commit. */
  fence: (batch: RunRecordBatch) => StoreError | undefined,
) {
  const inserts = new Map<number, Database.Statement<unknown[]>>();
  const insertOf = (rows: number): Database.Statement<unknown[]> => {
    let statement = inserts.get(rows);
    if (statement === undefined) {
      statement = db.prepare<unknown[]>(
        `INSERT INTO records (transcript_id, seq, run_id, kind, body, messages_node, turn) VALUES ${Array(rows).fill(RECORD_ROW).join(", ")}`,
      );
      inserts.set(rows, statement);
    }
    return statement;
  };

  /**
   * One run's records, in the caller's transaction: the seq of the first, or `null` when there
   * is no such transcript (and nothing was written). Search text is added once per block (a batch often holds several pieces of
   * one response), which is what adding it piece by piece came to.
   */
  function appendRows(
    transcriptId: string,
    runId: string,
    records: readonly TranscriptRecord[],
    encoded: readonly EncodedRecord[],
  ): number | null {
    // The last record of the batch's highest turn (the conversation's, unless one before is higher).
    let turn: number | null = null;
    let turnAt = 0;
    encoded.forEach((record, index) => {
      if (record.turn !== undefined && (turn === null || record.turn >= turn)) {
        turn = record.turn;
        turnAt = index + 1;
      }
    });
    const reserved = sql.reserveSeqs.get({
      id: transcriptId,
      count: encoded.length,
      now: now(),
      turn,
      turnAt,
    });
    if (!reserved) return null;
    const first = reserved.last_seq - encoded.length + 1;
    const blocks = new Map<string, string>();
    let rows: unknown[] = [];
    const insert = () => {
      if (rows.length > 0) insertOf(rows.length / 7).run(rows);
      rows = [];
    };
    encoded.forEach(({ body, messages: bodies, turn }, index) => {
      const record = records[index] as TranscriptRecord;
      const seq = first + index;
      const node = bodies === undefined ? null : messages.intern(transcriptId, bodies);
      rows.push(transcriptId, seq, runId, record.kind, body, node, turn ?? null);
      if (rows.length === ROWS_PER_INSERT * 7) insert();
      const piece = searchPiece(runId, record);
      if (piece) blocks.set(piece.blockKey, (blocks.get(piece.blockKey) ?? "") + piece.text);
    });
    insert();
    for (const [blockKey, text] of blocks) {
      const end = sql.lastSearchPart.get(transcriptId, blockKey);
      const { extend, added } = searchPartWrites(text, end);
      if (end !== undefined && extend !== "")
        sql.extendSearchPart.run(extend, transcriptId, blockKey, end.part);
      for (const { part, text, lead } of added)
        sql.addSearchPart.run(transcriptId, blockKey, part, text, lead);
    }
    return first;
  }

  const prepare = (batch: RunRecordBatch): Prepared => {
    const { json } = batch;
    try {
      return {
        batch,
        encoded: batch.records.map((record, index) => encodeRecord(record, json?.[index])),
      };
    } catch (error) {
      return { error };
    }
  };

  // A grouped commit answers each batch's last seq only: no stored copy of its records is made.
  const result = (batch: RunRecordBatch, first: number | null): RunBatchResult =>
    first === null
      ? { ok: false, error: transcriptNotFound(batch.transcriptId) }
      : { ok: true, lastSeq: batch.records.length === 0 ? 0 : first + batch.records.length - 1 };

  // The usual commit: every batch straight in. A batch that cannot be stored is found out
  // before it writes anything (a record that is not JSON, an unknown transcript, a run another
  // instance took over), so it fails alone; a statement failing halfway rolls the whole commit back, to be made batch by batch.
  let began = false;
  const writeAll = db.transaction((prepared: readonly Prepared[]) => {
    began = true;
    return prepared.map((item): RunBatchResult => {
      if ("error" in item) return { ok: false, error: item.error };
      const { batch, encoded } = item;
      const fenced = fence(batch);
      if (fenced !== undefined) return { ok: false, error: fenced };
      return result(batch, appendRows(batch.transcriptId, batch.runId, batch.records, encoded));
    });
  });
  // Each batch in its own savepoint (a nested transaction), so a failing one leaves the others.
  const appendOne = db.transaction(appendRows);
  const writeEach = db.transaction((prepared: readonly Prepared[]) =>
    prepared.map((item): RunBatchResult => {
      if ("error" in item) return { ok: false, error: item.error };
      const { batch, encoded } = item;
      const fenced = fence(batch);
      if (fenced !== undefined) return { ok: false, error: fenced };
      try {
        return result(batch, appendOne(batch.transcriptId, batch.runId, batch.records, encoded));
      } catch (error) {
        // The batch's savepoint rolled back: message nodes it interned may not exist.
        messages.forget(batch.transcriptId);
        return { ok: false, error };
      }
    }),
  );

  return {
    /** One run's records in a transaction of their own (`appendRecords`). */
    append(
      transcriptId: string,
      runId: string,
      records: readonly TranscriptRecord[],
      encoded: readonly EncodedRecord[],
    ): StoredRecord[] {
      try {
        const first = appendOne.immediate(transcriptId, runId, records, encoded);
        if (first === null) throw transcriptNotFound(transcriptId);
        // The records as given, not decoded back from their bodies: that cost a parse each.
        return records.map((record, index) => ({ ...record, seq: first + index, runId }));
      } catch (error) {
        messages.forget(transcriptId);
        throw error;
      }
    },

    /** Every batch in one commit; one that cannot be stored leaves the others in. */
    appendBatches(batches: readonly RunRecordBatch[]): RunBatchResult[] {
      const prepared = batches.map(prepare);
      began = false;
      try {
        return writeAll.immediate(prepared);
      } catch (error) {
        // The lock could not be had (busy): nothing ran, and trying again would wait as long.
        if (!began) throw error;
        // Rolled back whole: no message node any batch interned exists.
        for (const item of prepared) if ("batch" in item) messages.forget(item.batch.transcriptId);
        return writeEach.immediate(prepared);
      }
    },
  };
}
