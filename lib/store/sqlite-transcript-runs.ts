/**
 * `Store.listTranscriptRuns` on SQLite: one statement, every step along the primary key
 * (`EXPLAIN QUERY PLAN`: SEARCH records USING PRIMARY KEY throughout), no window over the
 * records (sorting 120,000 rows for `lag()` cost more than the rest). Where the run id changes
 * is found by skipping from one change to the next (reads each record's `run_id` once); user
 * messages by one pass over the event bodies (`instr` first, JSON only where `"user"` is
 * written); then each run's range once, in one correlated aggregate (count, greatest `t`, last
 * chunk or request: JSON read for chunks and requests only; a join grouped by run sorted every
 * record first, 1.7× the time), and the events after that last one (a few per run).
 * `bench/transcript-runs.ts` times it on a 50,000-event transcript.
 */
import type Database from "better-sqlite3";
import type { TranscriptRun } from "./store";
import { type TranscriptRunRow, transcriptRunsFromRows } from "./transcript-runs";

export const TRANSCRIPT_RUNS_SQL = `
  WITH RECURSIVE changes (seq, run_id) AS (
    SELECT * FROM (SELECT seq, run_id FROM records WHERE transcript_id = @id ORDER BY seq LIMIT 1)
    UNION ALL
    SELECT r.seq, r.run_id FROM changes AS c
      JOIN records AS r ON r.transcript_id = @id AND r.seq = (
        SELECT n.seq FROM records AS n
        WHERE n.transcript_id = @id AND n.seq > c.seq AND n.run_id <> c.run_id
        ORDER BY n.seq LIMIT 1)
  ),
  starts (seq, opens) AS (
    SELECT seq, max(opens) FROM (
      SELECT seq, 0 AS opens FROM changes
      UNION ALL
      SELECT seq, 1 FROM records WHERE transcript_id = @id AND kind = 'event'
        AND instr(body, '"user"') > 0 AND json_extract(body, '$.event.type') = 'user'
        AND json_type(body, '$.event.parent') IS NULL)
    GROUP BY seq
  ),
  spans AS MATERIALIZED (
    SELECT seq AS first_seq, opens, coalesce(lead(seq) OVER (ORDER BY seq) - 1,
      (SELECT max(seq) FROM records WHERE transcript_id = @id)) AS last_seq
    FROM starts
  ),
  ranges AS MATERIALIZED (
    SELECT s.first_seq, s.last_seq, s.opens, (
      SELECT json_array(min(r.run_id), count(*),
        max(CASE WHEN r.kind <> 'event' THEN json_extract(r.body, '$.t') END),
        max(CASE WHEN r.kind <> 'event' THEN r.seq END))
      FROM records AS r
      WHERE r.transcript_id = @id AND r.seq BETWEEN s.first_seq AND s.last_seq) AS a
    FROM spans AS s
  ),
  runs AS MATERIALIZED (
    SELECT first_seq, last_seq, opens, a ->> 0 AS run_id, a ->> 1 AS records, a ->> 2 AS last_t,
      coalesce(a ->> 3, first_seq - 1) AS last_stream
    FROM ranges
  ),
  tails AS (
    SELECT u.first_seq, json_extract(r.body, '$.event.type') AS type,
      json_extract(r.body, '$.event.code') AS code,
      json_type(r.body, '$.event.span') IS NOT NULL AS span,
      max(json_extract(r.body, '$.event.timestamp')) AS at
    FROM runs AS u JOIN records AS r ON r.transcript_id = @id
      AND r.seq > u.last_stream AND r.seq <= u.last_seq AND r.kind = 'event'
    GROUP BY u.first_seq, type, code, span
  )
  SELECT u.first_seq, u.last_seq, u.run_id, u.records, u.last_t,
    CASE WHEN u.opens THEN (SELECT json_extract(body, '$.event.timestamp') FROM records
      WHERE transcript_id = @id AND seq = u.first_seq) END AS started_at,
    t.type, t.code, t.span, t.at
  FROM runs AS u LEFT JOIN tails AS t ON t.first_seq = u.first_seq
  ORDER BY u.first_seq`;

/** The runs of transcript `id` (whose row the caller found live). */
export function sqliteTranscriptRuns(db: Database.Database): (id: string) => TranscriptRun[] {
  const statement = db.prepare<{ id: string }, TranscriptRunRow>(TRANSCRIPT_RUNS_SQL);
  return (id) => transcriptRunsFromRows(statement.all({ id }));
}
