/**
 * The SQL the PostgreSQL store runs. Plain strings with positional parameters: the driver stays
 * in `postgres-store.ts`. Rows map to metadata with the SQLite side's `rowToMeta` (same columns),
 * after `system` is decoded (it is stored JSON-encoded, see `postgres-schema.ts`).
 */
import { SEARCH_LEAD_CHARS, SEARCH_PART_CHARS, SEARCH_PARTS_MAX } from "./search-parts";
import { SNIPPET_RADIUS } from "./search-text";
import { RUN_COLUMNS, rowToMeta, type TranscriptRow } from "./sqlite-queries";
import type { TranscriptMeta } from "./store";
import { decodeStoredJson } from "./stored-json";

/** A block's search text: its parts (`search_parts`) joined in order. */
const BLOCK_TEXT = "string_agg(p.text, '' ORDER BY p.part)";

/**
 * Statements (WITH items) adding each piece of search text for the transcript `id` to its
 * block (block keys and texts: the arrays `keys` and `texts`), as `searchPartWrites` does: the
 * piece fills the block's last part, the rest goes in new parts (each led by the last
 * `SEARCH_LEAD_CHARS` characters before it), nothing past the last part allowed. `from` goes
 * before the pieces' source: `"reserved, "` writes nothing unless that row exists.
 *
 * The last part is read in the statement's snapshot, taken before it waits for the
 * transcript's row lock: two appends to one block at once would both extend the same part. A
 * block has one writer at a time (a run's records are committed in turn, `record-writer.ts`),
 * so this never happens; the old whole-block upsert did not depend on it.
 */
function appendSearchParts(id: string, keys: string, texts: string, from = ""): string {
  return `pieces AS (
      SELECT p.block_key, p.text FROM ${from}unnest(${keys}::text[], ${texts}::text[])
        AS p (block_key, text)
    ), ends AS (
      SELECT pieces.block_key, pieces.text, last.part, last.text AS last_text,
        CASE WHEN last.part IS NULL THEN 0
          ELSE greatest(0, ${SEARCH_PART_CHARS} - char_length(last.text)) END AS fill
      FROM pieces LEFT JOIN LATERAL (
        SELECT s.part, s.text FROM search_parts AS s
        WHERE s.transcript_id = ${id} AND s.block_key = pieces.block_key
        ORDER BY s.part DESC LIMIT 1
      ) AS last ON true
    ), added AS (
      INSERT INTO search_parts AS s (transcript_id, block_key, part, text, lead)
      SELECT ${id}, ends.block_key, ends.part, substr(ends.text, 1, ends.fill), ''
      FROM ends WHERE ends.fill > 0
      UNION ALL
      SELECT ${id}, ends.block_key, coalesce(ends.part, -1) + n,
        substr(ends.text, ends.fill + (n - 1) * ${SEARCH_PART_CHARS} + 1, ${SEARCH_PART_CHARS}),
        CASE WHEN n > 1 THEN right(substr(ends.text, ends.fill + (n - 2) * ${SEARCH_PART_CHARS} + 1,
            ${SEARCH_PART_CHARS}), ${SEARCH_LEAD_CHARS})
          WHEN ends.part IS NULL THEN ''
          ELSE right(ends.last_text || substr(ends.text, 1, ends.fill), ${SEARCH_LEAD_CHARS}) END
      FROM ends, generate_series(1,
        ceil(greatest(char_length(ends.text) - ends.fill, 0) / ${SEARCH_PART_CHARS}.0)::int) AS n
      WHERE coalesce(ends.part, -1) + n < ${SEARCH_PARTS_MAX}
      -- The last part's row is there: what fills it is added to its end.
      ON CONFLICT (transcript_id, block_key, part) DO UPDATE SET text = s.text || excluded.text
    )`;
}

const TRANSCRIPT_COLUMNS = `id, title, created_at, updated_at, deleted_at, dialect, model_provider,
  model_id, system, tools, parent_id, fork_point, definition, source, last_seq`;

/** The channel appends notify with the transcript's id (`LISTEN` in `watchAppends`). */
export const APPENDS_CHANNEL = "wirescope_appends";

const RECORD_COLUMNS = "seq, run_id, body, messages_node";

export const PG = {
  insertTranscript: `INSERT INTO transcripts (id, title, title_folded, created_at, updated_at,
      dialect, model_provider, model_id, system, tools, parent_id, fork_point, definition, source,
      deleted_at, import_instance)
    VALUES ($1, $2, $3, $4, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13,
      CASE WHEN $14::text IS NULL THEN NULL ELSE $4::bigint END, $14)`,
  selectTranscript: `SELECT ${TRANSCRIPT_COLUMNS} FROM transcripts WHERE id = $1`,
  exists: "SELECT 1 FROM transcripts WHERE id = $1",
  selectRecords: `SELECT ${RECORD_COLUMNS} FROM records WHERE transcript_id = $1 ORDER BY seq`,
  selectPageForward: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = $1 AND seq > $2 AND seq < $3 ORDER BY seq LIMIT $4`,
  selectPageBackward: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = $1 AND seq > $2 AND seq < $3 ORDER BY seq DESC LIMIT $4`,
  selectEvents: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = $1 AND kind = 'event' ORDER BY seq`,
  selectLastTurn: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = $1 AND turn IS NOT NULL ORDER BY turn DESC, seq DESC LIMIT 1`,
  selectNodes: "SELECT id, parent, body FROM message_nodes WHERE transcript_id = $1",
  // Every node on the paths from the nodes $1 up to the root, or up to a node of $2 (known
  // already, and with it its ancestors), in one round trip.
  selectChains: `WITH RECURSIVE chain (id, parent, body) AS (
      SELECT id, parent, body FROM message_nodes WHERE id = ANY($1::bigint[])
      UNION
      SELECT node.id, node.parent, node.body FROM message_nodes AS node
        JOIN chain ON node.id = chain.parent
        WHERE node.id <> ALL($2::bigint[])
    ) SELECT id, parent, body FROM chain`,
  // The child of $2 with message text $3, added when missing: one round trip per message.
  // Appends to one transcript hold its row lock, so two writers never add the same node.
  internChild: `WITH found AS (
      SELECT id FROM message_nodes WHERE transcript_id = $1 AND parent = $2 AND body = $3 LIMIT 1
    ), added AS (
      INSERT INTO message_nodes (transcript_id, parent, body)
        SELECT $1, $2, $3 WHERE NOT EXISTS (SELECT 1 FROM found) RETURNING id
    ) SELECT id FROM found UNION ALL SELECT id FROM added`,
  // strpos() on folded text, like SQLite's instr(): no LIKE escaping of % and _. The window is
  // one character wider each side than the snippet, so `matchSnippet` sees the cut. Across a
  // cut between a block's parts, as in SQLite: in the next part's lead, or in whole blocks.
  listTranscripts: `SELECT ${TRANSCRIPT_COLUMNS},
      CASE WHEN $1::text IS NULL OR strpos(title_folded, $1) > 0 THEN NULL ELSE (
        SELECT substr(b.text, greatest(1, strpos(b.text, $1) - ${SNIPPET_RADIUS + 1}),
          char_length($1) + ${2 * SNIPPET_RADIUS + 2})
        FROM (SELECT ${BLOCK_TEXT} AS text FROM search_parts AS p
          WHERE p.transcript_id = t.id GROUP BY p.block_key) AS b
        WHERE strpos(b.text, $1) > 0 LIMIT 1) END AS match_window
    FROM transcripts AS t
    WHERE deleted_at IS NULL AND ($4::text IS NULL OR source = $4)
      AND ($1::text IS NULL OR strpos(title_folded, $1) > 0
      OR EXISTS (SELECT 1 FROM search_parts AS p WHERE p.transcript_id = t.id
        AND (strpos(p.text, $1) > 0 OR p.lead <> ''
          AND strpos(p.lead || left(p.text, char_length($1) - 1), $1) > 0))
      OR char_length($1) > ${SEARCH_LEAD_CHARS + 1} AND EXISTS (SELECT 1 FROM search_parts AS p
        WHERE p.transcript_id = t.id
        GROUP BY p.block_key HAVING strpos(${BLOCK_TEXT}, $1) > 0))
    ORDER BY updated_at DESC, created_at DESC, id DESC
    LIMIT $2 OFFSET $3`,
  rename: `UPDATE transcripts SET title = $2, title_folded = $3, updated_at = $4
    WHERE id = $1 AND deleted_at IS NULL RETURNING ${TRANSCRIPT_COLUMNS}`,
  softDelete: "UPDATE transcripts SET deleted_at = $2 WHERE id = $1 AND deleted_at IS NULL",
  // Not one being purged (`deleted_at` -1): half its rows may be gone.
  // Shown: an import finished (no longer its writer's to abandon).
  restore: `UPDATE transcripts SET deleted_at = NULL, import_instance = NULL
    WHERE id = $1 AND deleted_at >= 0`,
  // Hidden imports whose writer's lease has ended (or was never written), marked as being
  // purged; those marked before too (a purge cut off). Never the asking instance's own.
  claimAbandonedImports: `UPDATE transcripts SET deleted_at = -1
    WHERE import_instance IS NOT NULL AND import_instance IS DISTINCT FROM $2::text
      AND deleted_at IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM instances
      WHERE instances.instance_id = transcripts.import_instance AND lease_until > $1)
    RETURNING id`,
  claimPurge: "UPDATE transcripts SET deleted_at = -1 WHERE id = $1 AND deleted_at IS NOT NULL",
  // A slice of a deleted transcript's records (by its key), then the transcript with the rest.
  purgeRecords: `DELETE FROM records WHERE transcript_id = $1 AND seq IN (
    SELECT seq FROM records WHERE transcript_id = $1 ORDER BY seq LIMIT $2)
    AND EXISTS (SELECT 1 FROM transcripts WHERE id = $1 AND deleted_at = -1)`,
  purgeTranscript: "DELETE FROM transcripts WHERE id = $1 AND deleted_at = -1",
  // Takes the transcript's row lock until commit: appends from any connection queue here. The
  // notification (delivered at commit, once per transcript per transaction) wakes the instances
  // following a run of it (`watchAppends`) without another round trip.
  reserveSeqs: `UPDATE transcripts SET last_seq = last_seq + $2, updated_at = $3
    WHERE id = $1 RETURNING last_seq, pg_notify('${APPENDS_CHANNEL}', id)`,
  // One statement for a whole append: the columns as parallel arrays.
  insertRecords: `INSERT INTO records (transcript_id, seq, run_id, kind, body, messages_node, turn)
    SELECT $1, r.seq, $2, r.kind, r.body, r.node, r.turn
    FROM unnest($3::bigint[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])
      AS r (seq, kind, body, node, turn)`,
  // A whole append of records with no request among them as one statement, so one round trip
  // and its own transaction: the seqs reserved (the row lock taken), the records and the
  // search text written. No row back: the transcript does not exist. It notifies like
  // `reserveSeqs`.
  appendAtOnce: `WITH reserved AS (
      UPDATE transcripts SET last_seq = last_seq + $3, updated_at = $4
      WHERE id = $1 RETURNING last_seq, pg_notify('${APPENDS_CHANNEL}', id)
    ), inserted AS (
      INSERT INTO records (transcript_id, seq, run_id, kind, body, turn)
      SELECT $1, reserved.last_seq - $3 + r.ordinal, $2, r.kind, r.body, r.turn
      FROM reserved, unnest($5::text[], $6::text[], $7::bigint[])
        WITH ORDINALITY AS r (kind, body, turn, ordinal)
    ), ${appendSearchParts("$1", "$8", "$9", "reserved, ")}
    SELECT last_seq FROM reserved`,
  appendSearch: `WITH ${appendSearchParts("$1", "$2", "$3")} SELECT 1`,
  selectRunRecords: `SELECT ${RECORD_COLUMNS} FROM records
    WHERE transcript_id = $1 AND run_id = $2 ORDER BY seq OFFSET $3`,
  insertRun: "INSERT INTO runs (run_id, transcript_id, started_at) VALUES ($1, $2, $3)",
  endRun: "UPDATE runs SET ended_at = $2 WHERE run_id = $1 AND ended_at IS NULL",
  selectRun: `SELECT ${RUN_COLUMNS} FROM runs WHERE run_id = $1`,
  // Locks the transcript's row first: claims for one conversation from any instance queue here,
  // so the second one sees the first one's run (READ COMMITTED alone would let both in).
  lockTranscript: "SELECT 1 FROM transcripts WHERE id = $1 FOR UPDATE",
  busyRun: "SELECT run_id FROM runs WHERE transcript_id = $1 AND ended_at IS NULL LIMIT 1",
  claimRun: `INSERT INTO runs (run_id, transcript_id, started_at, instance_id)
    VALUES ($1, $2, $3, $4)`,
  renewLease: `INSERT INTO instances (instance_id, lease_until) VALUES ($1, $2)
    ON CONFLICT (instance_id) DO UPDATE SET lease_until = excluded.lease_until`,
  leaseUntil: "SELECT lease_until FROM instances WHERE instance_id = $1",
  forgetEndedLeases: "DELETE FROM instances WHERE lease_until < $1",
  orphanedRuns: `SELECT ${RUN_COLUMNS} FROM runs
    WHERE ended_at IS NULL AND (instance_id IS NULL OR NOT EXISTS (SELECT 1 FROM instances
      WHERE instances.instance_id = runs.instance_id AND lease_until > $1))
    ORDER BY started_at, run_id`,
  adoptRun: `UPDATE runs SET instance_id = $2
    WHERE run_id = $1 AND ended_at IS NULL AND (instance_id IS NULL OR NOT EXISTS (
      SELECT 1 FROM instances
      WHERE instances.instance_id = runs.instance_id AND lease_until > $3))`,
  // Only the first ask sets it: a run's instance, or a racing second ask, can tell.
  requestStop: `UPDATE runs SET stop_requested_at = $2
    WHERE run_id = $1 AND ended_at IS NULL AND stop_requested_at IS NULL`,
  stopRequests: `SELECT run_id FROM runs
    WHERE instance_id = $1 AND ended_at IS NULL AND stop_requested_at IS NOT NULL`,
  instanceRuns: `SELECT run_id FROM runs WHERE instance_id = $1 AND ended_at IS NULL
    ORDER BY started_at, run_id`,
  // The fence of appends written for an instance (`RunRecordBatch.instanceId`). FOR SHARE holds
  // the rows until the append commits, so an adoption (an UPDATE of instance_id) waits for it,
  // or, having committed first, leaves no row here: never records after the adoption.
  heldRuns: `SELECT run_id FROM runs
    WHERE run_id = ANY($1::text[]) AND instance_id = $2 AND ended_at IS NULL FOR SHARE`,
  liveRuns: `SELECT ${RUN_COLUMNS}, instance_id,
      (SELECT count(*) FROM records
        WHERE records.transcript_id = runs.transcript_id AND records.run_id = runs.run_id)
        AS records
    FROM runs WHERE ended_at IS NULL ORDER BY started_at, run_id`,
  unfinishedRuns: `SELECT ${RUN_COLUMNS} FROM runs
    WHERE ended_at IS NULL ORDER BY started_at, run_id`,
  relicGet: "SELECT value, expires_at FROM relics WHERE namespace = $1 AND key = $2",
  relicSet: `INSERT INTO relics (namespace, key, value, expires_at) VALUES ($1, $2, $3, $4)
    ON CONFLICT (namespace, key) DO UPDATE
      SET value = excluded.value, expires_at = excluded.expires_at`,
  relicDelete: "DELETE FROM relics WHERE namespace = $1 AND key = $2 RETURNING expires_at",
  relicSweep: "DELETE FROM relics WHERE expires_at IS NOT NULL AND expires_at <= $1",
} as const;

/** A transcript row as PostgreSQL stores it: `system` JSON-encoded. */
export function pgRowToMeta(row: TranscriptRow): TranscriptMeta {
  const system = decodeStoredJson(row.system, `system prompt of transcript ${row.id}`);
  return rowToMeta({ ...row, system: typeof system === "string" ? system : "" });
}

/**
 * Search text as PostgreSQL can hold it: TEXT cannot contain NUL, so NUL becomes U+FFFD in
 * stored blocks and in queries alike (a query for one finds the other; nothing else changes).
 */
export function pgSearchText(text: string): string {
  return text.replaceAll("\u0000", "\ufffd");
}

/** Reads that take several queries: one snapshot, so records match the meta while others append. */
export const READ_TRANSACTION = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
