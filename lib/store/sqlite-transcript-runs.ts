/**
 * `Store.listTranscriptRuns` on SQLite: one statement over the transcript's records, in `seq`
 * order along the primary key. Each record is read once for its run id and kind; JSON is read
 * only where it tells something: a chunk's or request's `t`, whether an event that names
 * `"user"` is a user message, and the events after each run's last chunk or request (a few per
 * run: its metric, results, end), found again by primary key.
 */
import type Database from "better-sqlite3";
import type { TranscriptRun } from "./store";
import { type TranscriptRunRow, transcriptRunsFromRows } from "./transcript-runs";

export const TRANSCRIPT_RUNS_SQL = `
  WITH marked AS (
    SELECT seq, run_id, kind,
      CASE WHEN kind <> 'event' THEN json_extract(body, '$.t') END AS t,
      (kind = 'event' AND instr(body, '"user"') > 0
        AND json_extract(body, '$.event.type') = 'user'
        AND json_type(body, '$.event.parent') IS NULL) AS opens,
      lag(run_id) OVER (ORDER BY seq) AS previous
    FROM records WHERE transcript_id = @id
  ),
  numbered AS MATERIALIZED (
    SELECT seq, run_id, kind, t, opens,
      sum(opens OR previous IS NULL OR previous <> run_id) OVER (ORDER BY seq) AS run
    FROM marked
  ),
  runs AS MATERIALIZED (
    SELECT run, min(run_id) AS run_id, min(seq) AS first_seq, max(seq) AS last_seq,
      count(*) AS records, max(opens) AS opens, max(t) AS last_t,
      coalesce(max(CASE WHEN kind <> 'event' THEN seq END), 0) AS last_stream
    FROM numbered GROUP BY run
  ),
  tails AS (
    SELECT n.run, json_extract(r.body, '$.event.type') AS type,
      json_extract(r.body, '$.event.code') AS code,
      json_type(r.body, '$.event.span') IS NOT NULL AS span,
      max(json_extract(r.body, '$.event.timestamp')) AS at
    FROM numbered AS n
      JOIN runs AS u ON u.run = n.run
      JOIN records AS r ON r.transcript_id = @id AND r.seq = n.seq
    WHERE n.kind = 'event' AND n.seq > u.last_stream
    GROUP BY n.run, type, code, span
  )
  SELECT u.first_seq, u.last_seq, u.run_id, u.records, u.last_t,
    CASE WHEN u.opens THEN (SELECT json_extract(body, '$.event.timestamp') FROM records
      WHERE transcript_id = @id AND seq = u.first_seq) END AS started_at,
    t.type, t.code, t.span, t.at
  FROM runs AS u LEFT JOIN tails AS t ON t.run = u.run
  ORDER BY u.run`;

/** The runs of transcript `id` (whose row the caller found live). */
export function sqliteTranscriptRuns(db: Database.Database): (id: string) => TranscriptRun[] {
  const statement = db.prepare<{ id: string }, TranscriptRunRow>(TRANSCRIPT_RUNS_SQL);
  return (id) => transcriptRunsFromRows(statement.all({ id }));
}
