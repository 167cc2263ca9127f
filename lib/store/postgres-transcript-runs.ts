/**
 * `Store.listTranscriptRuns` on PostgreSQL: the SQLite statement's steps
 * (`sqlite-transcript-runs.ts`) in PostgreSQL's words, each along the primary key: where the
 * run id changes (skipping from one change to the next), user messages (a body parsed only
 * where `"user"` is written), each run's range once (a body parsed for chunks and requests
 * only), and the events after its last chunk or request. A run's range and its events are read
 * in a LATERAL join, an index range scan per run whatever the planner guesses: without
 * statistics (a table not yet analysed) it joined every run to every record, 6 s for 252 runs.
 */
export const PG_TRANSCRIPT_RUNS = `
  WITH RECURSIVE changes (seq, run_id) AS (
    (SELECT seq, run_id FROM records WHERE transcript_id = $1 ORDER BY seq LIMIT 1)
    UNION ALL
    SELECT n.seq, n.run_id FROM changes AS c
      CROSS JOIN LATERAL (SELECT seq, run_id FROM records
        WHERE transcript_id = $1 AND seq > c.seq AND run_id <> c.run_id
        ORDER BY seq LIMIT 1) AS n
  ),
  starts AS (
    SELECT seq, bool_or(opens) AS opens FROM (
      SELECT seq, false AS opens FROM changes
      UNION ALL
      SELECT seq, true FROM records WHERE transcript_id = $1 AND kind = 'event'
        AND CASE WHEN strpos(body, '"user"') > 0
          THEN body::json -> 'event' ->> 'type' = 'user'
            AND (body::json -> 'event' -> 'parent') IS NULL
          ELSE false END
    ) AS marks GROUP BY seq
  ),
  spans AS (
    SELECT seq AS first_seq, opens, coalesce(lead(seq) OVER (ORDER BY seq) - 1,
      (SELECT max(seq) FROM records WHERE transcript_id = $1)) AS last_seq
    FROM starts
  ),
  runs AS MATERIALIZED (
    SELECT s.first_seq, s.last_seq, s.opens, a.run_id, a.records, a.last_t,
      coalesce(a.last_stream, s.first_seq - 1) AS last_stream
    FROM spans AS s CROSS JOIN LATERAL (
      SELECT min(r.run_id) AS run_id, count(*) AS records,
        max(CASE WHEN r.kind <> 'event' THEN (r.body::json ->> 't')::float8 END) AS last_t,
        max(CASE WHEN r.kind <> 'event' THEN r.seq END) AS last_stream
      FROM records AS r
      WHERE r.transcript_id = $1 AND r.seq BETWEEN s.first_seq AND s.last_seq) AS a
  ),
  tails AS (
    SELECT u.first_seq, k.type, k.code, k.span, k.at
    FROM runs AS u CROSS JOIN LATERAL (
      SELECT e.event ->> 'type' AS type, e.event ->> 'code' AS code,
        (e.event -> 'span') IS NOT NULL AS span, max((e.event ->> 'timestamp')::float8) AS at
      FROM records AS r CROSS JOIN LATERAL (SELECT r.body::json -> 'event' AS event) AS e
      WHERE r.transcript_id = $1 AND r.seq > u.last_stream AND r.seq <= u.last_seq
        AND r.kind = 'event'
      GROUP BY 1, 2, 3) AS k
  )
  SELECT u.first_seq, u.last_seq, u.run_id, u.records, u.last_t,
    CASE WHEN u.opens THEN (SELECT (body::json -> 'event' ->> 'timestamp')::float8
      FROM records WHERE transcript_id = $1 AND seq = u.first_seq) END AS started_at,
    t.type, t.code, t.span, t.at
  FROM runs AS u LEFT JOIN tails AS t ON t.first_seq = u.first_seq
  ORDER BY u.first_seq`;
