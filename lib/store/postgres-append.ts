/**
 * Appending on PostgreSQL, inside a transaction the caller holds (`postgres-store.ts`). The
 * first statement of every append bumps the transcript's `last_seq`, taking its row lock until
 * commit: that is what keeps `seq` gapless across connections and instances.
 *
 * Round trips are what an append costs on a network, so records with no request among them
 * (chunks and events: nearly all of a run) go in one statement (`appendAtOnce`); a request's
 * messages are interned in the message tree first, one round trip per new message.
 */
import type { PoolClient } from "pg";
import { StoreError, transcriptNotFound } from "./errors";
import { storeErrorOf } from "./postgres-errors";
import type { PostgresMessages } from "./postgres-messages";
import { PG, pgSearchText } from "./postgres-queries";
import { searchPiece } from "./search-text";
import type {
  Clock,
  RunBatchResult,
  RunRecordBatch,
  StoredRecord,
  TranscriptRecord,
} from "./store";
import { type EncodedRecord, encodeRecord } from "./stored-json";

/** A batch with its records encoded, or why they cannot be. */
export type PreparedBatch =
  | { batch: RunRecordBatch; encoded: EncodedRecord[] }
  | { batch: RunRecordBatch; error: unknown };

export function prepareBatch(batch: RunRecordBatch): PreparedBatch {
  try {
    const { json } = batch;
    return {
      batch,
      encoded: batch.records.map((record, index) => encodeRecord(record, json?.[index])),
    };
  } catch (error) {
    return { batch, error };
  }
}

/**
 * The one statement of an append without requests; no row back = no such transcript. Named,
 * so each connection plans it once: planned on every call, its search-text steps took
 * PostgreSQL's append rate down by a third (`bench/append-bench.ts`).
 */
export function appendAtOnce(
  { transcriptId, runId, records }: RunRecordBatch,
  encoded: readonly EncodedRecord[],
  now: number,
): { name: string; text: string; values: unknown[] } {
  const blocks = searchBlocks(runId, records);
  return {
    name: "wirescope-append-at-once",
    text: PG.appendAtOnce,
    values: [
      transcriptId,
      runId,
      encoded.length,
      now,
      records.map((record) => record.kind),
      encoded.map((item) => item.body),
      encoded.map((item) => item.turn ?? null),
      [...blocks.keys()],
      [...blocks.values()],
    ],
  };
}

/** The records as stored, given the `last_seq` their append reserved. */
export function positioned(
  { transcriptId, runId, records }: RunRecordBatch,
  last: number | undefined,
): StoredRecord[] {
  if (last === undefined) throw transcriptNotFound(transcriptId);
  const first = last - records.length + 1;
  return records.map((record, index) => ({ ...record, seq: first + index, runId }));
}

export function postgresAppender(messages: PostgresMessages, now: Clock) {
  async function append(
    client: PoolClient,
    batch: RunRecordBatch,
    encoded: readonly EncodedRecord[],
  ): Promise<StoredRecord[]> {
    if (encoded.every((item) => item.messages === undefined)) {
      const statement = appendAtOnce(batch, encoded, now());
      const result = await client.query<{ last_seq: number }>(statement);
      return positioned(batch, result.rows[0]?.last_seq);
    }
    const { transcriptId, runId, records } = batch;
    const reserved = await client.query<{ last_seq: number }>(PG.reserveSeqs, [
      transcriptId,
      encoded.length,
      now(),
    ]);
    const last = reserved.rows[0]?.last_seq;
    // Nothing written yet: the transaction is still good for the other batches.
    if (last === undefined) throw transcriptNotFound(transcriptId);
    const first = last - encoded.length + 1;
    const nodes: (number | null)[] = [];
    for (const { messages: bodies } of encoded)
      nodes.push(bodies === undefined ? null : await messages.intern(client, transcriptId, bodies));
    await client.query(PG.insertRecords, [
      transcriptId,
      runId,
      encoded.map((_, index) => first + index),
      records.map((record) => record.kind),
      encoded.map((item) => item.body),
      nodes,
      encoded.map((item) => item.turn ?? null),
    ]);
    const blocks = searchBlocks(runId, records);
    if (blocks.size > 0)
      await client.query(PG.appendSearch, [transcriptId, [...blocks.keys()], [...blocks.values()]]);
    return positioned(batch, last);
  }

  /**
   * Every batch in the caller's transaction. Without savepoints (the fast path) a batch for an
   * unknown transcript still fails alone (nothing of it was written); any failed statement
   * rejects, and the caller tries again `savepoints: true`, each batch in its own savepoint.
   */
  async function writeBatches(
    client: PoolClient,
    prepared: readonly PreparedBatch[],
    options: { savepoints: true; where: string } | undefined = undefined,
  ): Promise<RunBatchResult[]> {
    const results: RunBatchResult[] = [];
    for (const item of prepared) {
      if ("error" in item) {
        results.push({ ok: false, error: item.error });
        continue;
      }
      if (options === undefined) {
        try {
          const stored = await append(client, item.batch, item.encoded);
          results.push({ ok: true, lastSeq: stored.at(-1)?.seq ?? 0 });
        } catch (error) {
          if (!(error instanceof StoreError && error.code === "not_found")) throw error;
          results.push({ ok: false, error });
        }
        continue;
      }
      await client.query("SAVEPOINT batch");
      try {
        const stored = await append(client, item.batch, item.encoded);
        await client.query("RELEASE SAVEPOINT batch");
        results.push({ ok: true, lastSeq: stored.at(-1)?.seq ?? 0 });
      } catch (error) {
        await client.query("ROLLBACK TO SAVEPOINT batch");
        messages.forget(item.batch.transcriptId);
        results.push({ ok: false, error: storeErrorOf(error, options.where) });
      }
    }
    return results;
  }

  return { append, writeBatches };
}

/** Search text an append adds, per block: pieces of one block joined, one upsert row each. */
function searchBlocks(runId: string, records: readonly TranscriptRecord[]): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const record of records) {
    const piece = searchPiece(runId, record);
    if (piece)
      blocks.set(piece.blockKey, (blocks.get(piece.blockKey) ?? "") + pgSearchText(piece.text));
  }
  return blocks;
}
