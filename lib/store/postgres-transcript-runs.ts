/**
 * `Store.listTranscriptRuns` on PostgreSQL: the SQLite statement's plan (`sqlite-transcript-runs.ts`)
 * in PostgreSQL's words. Each record is read once for its run id and kind, along the primary
 * key; a body is parsed only for a chunk's or request's `t`, an event that names `"user"`, and
 * the events after each run's last chunk or request (found again by primary key).
 */
export const PG_TRANSCRIPT_RUNS = `
  WITH marked AS (
    SELECT seq, run_id, kind,
      CASE WHEN kind <> 'event' THEN (body::json ->> 't')::float8 END AS t,
      CASE WHEN kind = 'event' AND strpos(body, '"user"') > 0
        THEN body::json -> 'event' ->> 'type' = 'user'
          AND (body::json -> 'event' -> 'parent') IS NULL
        ELSE false END AS opens,
      lag(run_id) OVER (ORDER BY seq) AS previous
    FROM records WHERE transcript_id = $1
  ),
  numbered AS MATERIALIZED (
    SELECT seq, run_id, kind, t, opens,
      sum(CASE WHEN opens OR previous IS NULL OR previous <> run_id THEN 1 ELSE 0 END)
        OVER (ORDER BY seq) AS run
    FROM marked
  ),
  runs AS MATERIALIZED (
    SELECT run, min(run_id) AS run_id, min(seq) AS first_seq, max(seq) AS last_seq,
      count(*) AS records, bool_or(opens) AS opens, max(t) AS last_t,
      coalesce(max(CASE WHEN kind <> 'event' THEN seq END), 0) AS last_stream
    FROM numbered GROUP BY run
  ),
  tails AS (
    SELECT n.run, e.event ->> 'type' AS type, e.event ->> 'code' AS code,
      (e.event -> 'span') IS NOT NULL AS span, max((e.event ->> 'timestamp')::float8) AS at
    FROM numbered AS n
      JOIN runs AS u ON u.run = n.run
      JOIN records AS r ON r.transcript_id = $1 AND r.seq = n.seq
      CROSS JOIN LATERAL (SELECT r.body::json -> 'event' AS event) AS e
    WHERE n.kind = 'event' AND n.seq > u.last_stream
    GROUP BY n.run, 2, 3, 4
  )
  SELECT u.first_seq, u.last_seq, u.run_id, u.records, u.last_t,
    CASE WHEN u.opens THEN (SELECT (body::json -> 'event' ->> 'timestamp')::float8
      FROM records WHERE transcript_id = $1 AND seq = u.first_seq) END AS started_at,
    t.type, t.code, t.span, t.at
  FROM runs AS u LEFT JOIN tails AS t ON t.run = u.run
  ORDER BY u.run`;
