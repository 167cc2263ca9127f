/**
 * The SQL the SQLite store runs, with the row shapes it reads back. Plain strings: the driver
 * stays in `sqlite-store.ts`, which prepares each statement once per connection.
 */
import type { Dialect, DialectDefinition } from "../protocol";
import { SEARCH_LEAD_CHARS } from "./search-parts";
import { SNIPPET_RADIUS } from "./search-text";
import type { RunInfo, TranscriptMeta, TranscriptSource } from "./store";
import { decodeStoredJson } from "./stored-json";

export interface TranscriptRow {
  id: string;
  title: string;
  created_at: number;
  updated_at: number;
  deleted_at: number | null;
  dialect: string;
  model_provider: string;
  model_id: string;
  system: string;
  tools: string;
  parent_id: string | null;
  fork_point: number | null;
  definition: string | null;
  source: string;
  last_seq: number;
}

/** A listed row: with a query, a window of the first block that matched when the title did not. */
export type ListedRow = TranscriptRow & { match_window: string | null };

export interface RecordRow {
  seq: number;
  run_id: string;
  body: string;
  messages_node: number | null;
}

export interface NodeRow {
  id: number;
  parent: number;
  body: string;
}

export interface RunRow {
  run_id: string;
  transcript_id: string;
  started_at: number;
  ended_at: number | null;
  stop_requested_at: number | null;
}

export type LiveRunRow = RunRow & { instance_id: string | null; records: number };

export interface RelicRow {
  value: string;
  expires_at: number | null;
}

// `t` is the transcript's row (the hot one: appends bump last_seq and updated_at), `s` its
// settings (schema 7: system, tools, definition, written once).
const TRANSCRIPT_COLUMNS = `t.id, t.title, t.created_at, t.updated_at, t.deleted_at, t.dialect,
  t.model_provider, t.model_id, s.system, s.tools, t.parent_id, t.fork_point, s.definition,
  t.source, t.last_seq`;

const WITH_SETTINGS = "transcripts AS t JOIN transcript_settings AS s ON s.transcript_id = t.id";

/** A block's search text: its parts (`search_parts`) joined in order. */
const BLOCK_TEXT = "group_concat(p.text, '' ORDER BY p.part)";
/** Each search block's text of the transcript `t`. */
const BLOCK_TEXTS = `(SELECT ${BLOCK_TEXT} AS text FROM search_parts AS p
  WHERE p.transcript_id = t.id GROUP BY p.block_key)`;
const RECORD_COLUMNS = "seq, run_id, body, messages_node";
/** A `RunRow`'s columns (both stores' run reads). */
export const RUN_COLUMNS = "run_id, transcript_id, started_at, ended_at, stop_requested_at";

export const QUERIES = {
  insertTranscript: `INSERT INTO transcripts (id, title, title_folded, created_at, updated_at,
      dialect, model_provider, model_id, parent_id, fork_point, source, deleted_at,
      import_instance)
    VALUES (@id, @title, @titleFolded, @createdAt, @createdAt, @dialect, @modelProvider,
      @modelId, @parentId, @forkPoint, @source, @deletedAt, @importInstance)`,
  insertSettings: `INSERT INTO transcript_settings (transcript_id, system, tools, definition)
    VALUES (@id, @system, @tools, @definition)`,
  selectTranscript: `SELECT ${TRANSCRIPT_COLUMNS} FROM ${WITH_SETTINGS} WHERE t.id = ?`,
  transcriptExists: "SELECT 1 AS found FROM transcripts WHERE id = ?",
  selectRecords: `SELECT ${RECORD_COLUMNS} FROM records WHERE transcript_id = ? ORDER BY seq`,
  selectPageForward: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = @id AND seq > @after AND seq < @before ORDER BY seq LIMIT @limit`,
  selectPageBackward: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = @id AND seq > @after AND seq < @before ORDER BY seq DESC LIMIT @limit`,
  selectEvents: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = ? AND kind = 'event' ORDER BY seq`,
  // The record of the highest turn (the last one of it), as appends note it (schema 8).
  selectLastTurn: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = @id AND seq = (SELECT last_turn_seq FROM transcripts WHERE id = @id)`,
  selectNodes: "SELECT id, parent, body FROM message_nodes WHERE transcript_id = ?",
  // The path from one node up to the root.
  selectChain: `WITH RECURSIVE chain (id, parent, body) AS (
      SELECT id, parent, body FROM message_nodes WHERE id = ?
      UNION ALL
      SELECT node.id, node.parent, node.body FROM message_nodes AS node
        JOIN chain ON node.id = chain.parent
    ) SELECT id, parent, body FROM chain`,
  findChild: `SELECT id FROM message_nodes
    WHERE transcript_id = ? AND parent = ? AND body = ? LIMIT 1`,
  addChild: "INSERT INTO message_nodes (transcript_id, parent, body) VALUES (?, ?, ?)",
  // A folded query against folded text: instr() needs no LIKE escaping of % and _. The match
  // window is one character wider each side than the snippet, so `matchSnippet` sees the cut.
  // A match lies in one part of a block, or across a cut: a query of up to 64 characters is
  // found there in the part after the cut, its lead (the last 63 characters before the cut)
  // and its start; a longer one is looked for in whole blocks, their parts joined in order
  // (joining every block made a search over 10,600 small blocks 3 ms slower than this).
  listTranscripts: `SELECT ${TRANSCRIPT_COLUMNS},
      CASE WHEN @query IS NULL OR instr(t.title_folded, @query) > 0 THEN NULL ELSE (
        SELECT substr(b.text, max(1, instr(b.text, @query) - ${SNIPPET_RADIUS + 1}),
          length(@query) + ${2 * SNIPPET_RADIUS + 2})
        FROM ${BLOCK_TEXTS} AS b WHERE instr(b.text, @query) > 0
        LIMIT 1) END AS match_window
    FROM ${WITH_SETTINGS}
    WHERE t.deleted_at IS NULL AND (@source IS NULL OR t.source = @source)
      AND (@query IS NULL OR instr(t.title_folded, @query) > 0
      OR EXISTS (SELECT 1 FROM search_parts AS p WHERE p.transcript_id = t.id
        AND (instr(p.text, @query) > 0 OR p.lead <> ''
          AND instr(p.lead || substr(p.text, 1, length(@query) - 1), @query) > 0))
      OR length(@query) > ${SEARCH_LEAD_CHARS + 1} AND EXISTS (SELECT 1 FROM search_parts AS p
        WHERE p.transcript_id = t.id
        GROUP BY p.block_key HAVING instr(${BLOCK_TEXT}, @query) > 0))
    ORDER BY t.updated_at DESC, t.created_at DESC, t.id DESC
    LIMIT @limit OFFSET @offset`,
  // The caller reads the meta back (RETURNING cannot reach the settings' table).
  rename: `UPDATE transcripts SET title = @title, title_folded = @titleFolded, updated_at = @now
    WHERE id = @id AND deleted_at IS NULL`,
  softDelete: "UPDATE transcripts SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
  // A deleted transcript marked as being purged (`deleted_at` -1): restore leaves it.
  claimPurge: "UPDATE transcripts SET deleted_at = -1 WHERE id = ? AND deleted_at IS NOT NULL",
  // A slice of a transcript's rows at a time, each found by its key (no scan of the rest).
  purgeRecords: `DELETE FROM records WHERE transcript_id = @id AND seq IN (
    SELECT seq FROM records WHERE transcript_id = @id ORDER BY seq LIMIT @limit)`,
  purgeSearchParts: `DELETE FROM search_parts WHERE transcript_id = @id AND (block_key, part) IN (
    SELECT block_key, part FROM search_parts WHERE transcript_id = @id LIMIT @limit)`,
  purgeMessageNodes: `DELETE FROM message_nodes WHERE id IN (
    SELECT id FROM message_nodes WHERE transcript_id = @id LIMIT @limit)`,
  purgeTranscript: "DELETE FROM transcripts WHERE id = ? AND deleted_at = -1",
  // Not one being purged (`deleted_at` -1): half its rows may be gone.
  // Shown: an import finished (no longer its writer's to abandon).
  restore: `UPDATE transcripts SET deleted_at = NULL, import_instance = NULL
    WHERE id = ? AND deleted_at >= 0`,
  // Hidden imports whose writer's lease has ended (or was never written), marked as being
  // purged; those marked before too (a purge cut off). Never the asking instance's own.
  claimAbandonedImports: `UPDATE transcripts SET deleted_at = -1
    WHERE import_instance IS NOT NULL AND import_instance IS NOT ?
      AND deleted_at IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM instances
      WHERE instances.instance_id = transcripts.import_instance AND lease_until > ?)
    RETURNING id`,
  // Every expression reads the row as it was. `@turn`: the highest turn among the appended
  // records, `@turnAt` the position (1-based) of its last record among them; it becomes the
  // conversation's last turn unless an earlier record's turn is higher.
  reserveSeqs: `UPDATE transcripts SET last_seq = last_seq + @count, updated_at = @now,
      last_turn_seq = CASE WHEN @turn IS NULL OR @turn < last_turn THEN last_turn_seq
        ELSE last_seq + @turnAt END,
      last_turn = CASE WHEN @turn IS NULL OR @turn < last_turn THEN last_turn ELSE @turn END
    WHERE id = @id RETURNING last_seq`,
  insertRecord: `INSERT INTO records (transcript_id, seq, run_id, kind, body, messages_node, turn)
    VALUES (?, ?, ?, ?, ?, ?, ?)`,
  // A block's search text is appended in parts (`searchPartWrites`): its last part, then the
  // piece's end of it and the parts after it.
  lastSearchPart: `SELECT part, length(text) AS length,
      substr(text, -${SEARCH_LEAD_CHARS}) AS tail FROM search_parts
    WHERE transcript_id = ? AND block_key = ? ORDER BY part DESC LIMIT 1`,
  extendSearchPart: `UPDATE search_parts SET text = text || ?
    WHERE transcript_id = ? AND block_key = ? AND part = ?`,
  addSearchPart: `INSERT INTO search_parts (transcript_id, block_key, part, text, lead)
    VALUES (?, ?, ?, ?, ?)`,
  selectRunRecords: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = ? AND run_id = ? ORDER BY seq LIMIT -1 OFFSET ?`,
  insertRun: "INSERT INTO runs (run_id, transcript_id, started_at) VALUES (?, ?, ?)",
  endRun: "UPDATE runs SET ended_at = ? WHERE run_id = ? AND ended_at IS NULL",
  selectRun: `SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = ?`,
  unfinishedRuns: `SELECT ${RUN_COLUMNS} FROM runs
    WHERE ended_at IS NULL ORDER BY started_at, run_id`,
  busyRun: "SELECT run_id FROM runs WHERE transcript_id = ? AND ended_at IS NULL LIMIT 1",
  claimRun: `INSERT INTO runs (run_id, transcript_id, started_at, instance_id)
    VALUES (?, ?, ?, ?)`,
  renewLease: `INSERT INTO instances (instance_id, lease_until) VALUES (?, ?)
    ON CONFLICT (instance_id) DO UPDATE SET lease_until = excluded.lease_until`,
  leaseUntil: "SELECT lease_until FROM instances WHERE instance_id = ?",
  forgetEndedLeases: "DELETE FROM instances WHERE lease_until < ?",
  // A run with no instance, or whose instance's lease has ended (or was never written).
  orphanedRuns: `SELECT ${RUN_COLUMNS} FROM runs
    WHERE ended_at IS NULL AND (instance_id IS NULL OR NOT EXISTS (SELECT 1 FROM instances
      WHERE instances.instance_id = runs.instance_id AND lease_until > @now))
    ORDER BY started_at, run_id`,
  adoptRun: `UPDATE runs SET instance_id = @instance
    WHERE run_id = @runId AND ended_at IS NULL AND (instance_id IS NULL OR NOT EXISTS (
      SELECT 1 FROM instances
      WHERE instances.instance_id = runs.instance_id AND lease_until > @now))`,
  // Only the first ask sets it: a run's instance, or a racing second ask, can tell.
  requestStop: `UPDATE runs SET stop_requested_at = ?
    WHERE run_id = ? AND ended_at IS NULL AND stop_requested_at IS NULL`,
  stopRequests: `SELECT run_id FROM runs
    WHERE instance_id = ? AND ended_at IS NULL AND stop_requested_at IS NOT NULL`,
  instanceRuns: `SELECT run_id FROM runs WHERE instance_id = ? AND ended_at IS NULL
    ORDER BY started_at, run_id`,
  // The fence of an append written for an instance (`RunRecordBatch.instanceId`).
  heldRun: `SELECT 1 AS held FROM runs
    WHERE run_id = ? AND instance_id = ? AND ended_at IS NULL`,
  liveRuns: `SELECT ${RUN_COLUMNS}, instance_id,
      (SELECT count(*) FROM records
        WHERE records.transcript_id = runs.transcript_id AND records.run_id = runs.run_id)
        AS records
    FROM runs WHERE ended_at IS NULL ORDER BY started_at, run_id`,
  relicGet: "SELECT value, expires_at FROM relics WHERE namespace = ? AND key = ?",
  relicSet: `INSERT INTO relics (namespace, key, value, expires_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (namespace, key) DO UPDATE
      SET value = excluded.value, expires_at = excluded.expires_at`,
  relicDelete: "DELETE FROM relics WHERE namespace = ? AND key = ? RETURNING expires_at",
  relicSweep: "DELETE FROM relics WHERE expires_at IS NOT NULL AND expires_at <= ?",
} as const;

export function rowToRun(row: RunRow): RunInfo {
  return {
    runId: row.run_id,
    transcriptId: row.transcript_id,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    stopRequestedAt: row.stop_requested_at,
  };
}

export function rowToMeta(row: TranscriptRow): TranscriptMeta {
  const meta: TranscriptMeta = {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    dialect: row.dialect as Dialect,
    model: { provider: row.model_provider, id: row.model_id },
    system: row.system,
    tools: decodeStoredJson(row.tools, `tools of transcript ${row.id}`) as string[],
    source: row.source as TranscriptSource,
  };
  if (row.parent_id !== null) meta.parentId = row.parent_id;
  if (row.fork_point !== null) meta.forkPoint = row.fork_point;
  if (row.definition !== null)
    meta.definition = decodeStoredJson(
      row.definition,
      `dialect definition of transcript ${row.id}`,
    ) as DialectDefinition;
  return meta;
}
