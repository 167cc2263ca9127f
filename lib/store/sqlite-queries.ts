/**
 * The SQL the SQLite store runs, with the row shapes it reads back. Plain strings: the driver
 * stays in `sqlite-store.ts`, which prepares each statement once per connection.
 */
import type { Dialect } from "../protocol";
import type { TranscriptMeta } from "./store";
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
  last_seq: number;
}

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

export interface RelicRow {
  value: string;
  expires_at: number | null;
}

const TRANSCRIPT_COLUMNS = `id, title, created_at, updated_at, deleted_at, dialect, model_provider,
  model_id, system, tools, parent_id, fork_point, last_seq`;

const RECORD_COLUMNS = "seq, run_id, body, messages_node";

export const QUERIES = {
  insertTranscript: `INSERT INTO transcripts (id, title, title_folded, created_at, updated_at,
      dialect, model_provider, model_id, system, tools, parent_id, fork_point)
    VALUES (@id, @title, @titleFolded, @createdAt, @createdAt, @dialect, @modelProvider,
      @modelId, @system, @tools, @parentId, @forkPoint)`,
  selectTranscript: `SELECT ${TRANSCRIPT_COLUMNS} FROM transcripts WHERE id = ?`,
  selectRecords: `SELECT ${RECORD_COLUMNS} FROM records WHERE transcript_id = ? ORDER BY seq`,
  selectPageForward: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = @id AND seq > @after AND seq < @before ORDER BY seq LIMIT @limit`,
  selectPageBackward: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = @id AND seq > @after AND seq < @before ORDER BY seq DESC LIMIT @limit`,
  selectEvents: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = ? AND kind = 'event' ORDER BY seq`,
  selectLastTurn: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = ? AND turn IS NOT NULL ORDER BY turn DESC, seq DESC LIMIT 1`,
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
  // A folded query against folded text: instr() needs no LIKE escaping of % and _.
  listTranscripts: `SELECT ${TRANSCRIPT_COLUMNS} FROM transcripts AS t
    WHERE deleted_at IS NULL AND (@query IS NULL OR instr(title_folded, @query) > 0
      OR EXISTS (SELECT 1 FROM search_blocks AS b
        WHERE b.transcript_id = t.id AND instr(b.text, @query) > 0))
    ORDER BY updated_at DESC, created_at DESC, id DESC
    LIMIT @limit OFFSET @offset`,
  rename: `UPDATE transcripts SET title = @title, title_folded = @titleFolded, updated_at = @now
    WHERE id = @id AND deleted_at IS NULL RETURNING ${TRANSCRIPT_COLUMNS}`,
  softDelete: "UPDATE transcripts SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL",
  restore: "UPDATE transcripts SET deleted_at = NULL WHERE id = ? AND deleted_at IS NOT NULL",
  reserveSeqs: `UPDATE transcripts SET last_seq = last_seq + @count, updated_at = @now
    WHERE id = @id RETURNING last_seq`,
  insertRecord: `INSERT INTO records (transcript_id, seq, run_id, kind, body, messages_node, turn)
    VALUES (?, ?, ?, ?, ?, ?, ?)`,
  appendSearch: `INSERT INTO search_blocks (transcript_id, block_key, text) VALUES (?, ?, ?)
    ON CONFLICT (transcript_id, block_key) DO UPDATE SET text = text || excluded.text`,
  relicGet: "SELECT value, expires_at FROM relics WHERE namespace = ? AND key = ?",
  relicSet: `INSERT INTO relics (namespace, key, value, expires_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (namespace, key) DO UPDATE
      SET value = excluded.value, expires_at = excluded.expires_at`,
  relicDelete: "DELETE FROM relics WHERE namespace = ? AND key = ? RETURNING expires_at",
  relicSweep: "DELETE FROM relics WHERE expires_at IS NOT NULL AND expires_at <= ?",
} as const;

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
  };
  if (row.parent_id !== null) meta.parentId = row.parent_id;
  if (row.fork_point !== null) meta.forkPoint = row.fork_point;
  return meta;
}
