/**
 * The PostgreSQL schema as ordered, versioned migrations. `wirescope_migrations` holds one row
 * per migration applied; append new ones, never edit a released one. `postgres-migrate.ts`
 * applies the pending ones at start, under an advisory lock, so instances starting at once
 * take turns. The layout follows the SQLite one (`sqlite-schema.ts`) as it is today:
 *
 * - JSON is TEXT, not JSONB: JSONB reorders object keys, and records come back key order kept.
 * - `system` is stored JSON-encoded: TEXT cannot hold NUL, which a system prompt may contain.
 * - Ids compare `COLLATE "C"` (byte order, like SQLite), so list order is the same whatever
 *   the database's locale.
 * - Timestamps are ms since epoch in BIGINT.
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE transcripts (
    id TEXT COLLATE "C" PRIMARY KEY,
    title TEXT NOT NULL,
    title_folded TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    deleted_at BIGINT,
    dialect TEXT NOT NULL,
    model_provider TEXT NOT NULL,
    model_id TEXT NOT NULL,
    system TEXT NOT NULL,
    tools TEXT NOT NULL,
    parent_id TEXT COLLATE "C" REFERENCES transcripts (id) ON DELETE SET NULL,
    fork_point BIGINT,
    definition TEXT,
    source TEXT NOT NULL DEFAULT 'playground'
      CHECK (source IN ('playground', 'import', 'capture')),
    -- The seq of the newest record. An append bumps it first: that row lock is what makes
    -- writers on other connections (other instances) queue, so seq has no gaps.
    last_seq BIGINT NOT NULL DEFAULT 0
  );

  CREATE INDEX transcripts_recent ON transcripts (updated_at DESC, created_at DESC, id DESC)
    WHERE deleted_at IS NULL;

  CREATE TABLE records (
    transcript_id TEXT COLLATE "C" NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    run_id TEXT COLLATE "C" NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    messages_node BIGINT,
    turn BIGINT,
    PRIMARY KEY (transcript_id, seq)
  );

  CREATE INDEX records_turn ON records (transcript_id, turn) WHERE turn IS NOT NULL;
  CREATE INDEX records_run ON records (transcript_id, run_id, seq);

  CREATE TABLE search_blocks (
    transcript_id TEXT COLLATE "C" NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
    block_key TEXT COLLATE "C" NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (transcript_id, block_key)
  );

  CREATE TABLE relics (
    namespace TEXT COLLATE "C" NOT NULL,
    key TEXT COLLATE "C" NOT NULL,
    value TEXT NOT NULL,
    expires_at BIGINT,
    PRIMARY KEY (namespace, key)
  );

  CREATE INDEX relics_expiry ON relics (expires_at) WHERE expires_at IS NOT NULL;

  CREATE TABLE runs (
    run_id TEXT COLLATE "C" PRIMARY KEY,
    transcript_id TEXT COLLATE "C" NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
    started_at BIGINT NOT NULL,
    ended_at BIGINT
  );

  CREATE INDEX runs_unfinished ON runs (started_at, run_id) WHERE ended_at IS NULL;

  CREATE TABLE message_nodes (
    id BIGSERIAL PRIMARY KEY,
    transcript_id TEXT COLLATE "C" NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
    -- 0 is the root (the empty list); otherwise the node of the message before this one.
    parent BIGINT NOT NULL,
    body TEXT NOT NULL
  );

  CREATE INDEX message_nodes_children ON message_nodes (transcript_id, parent);
  `,
  // Several instances on one database (as SQLite's migration 6): the instance running each run,
  // stop requests passed through the store, and each instance's lease.
  `
  ALTER TABLE runs ADD COLUMN instance_id TEXT COLLATE "C";
  ALTER TABLE runs ADD COLUMN stop_requested_at BIGINT;
  CREATE INDEX runs_unfinished_transcript ON runs (transcript_id) WHERE ended_at IS NULL;

  CREATE TABLE instances (
    instance_id TEXT COLLATE "C" PRIMARY KEY,
    lease_until BIGINT NOT NULL
  );
  `,
  // A block's search text in parts of at most 512 characters, each after the first led by the
  // last 63 of the one before (as SQLite's migration 9): an append extends the last part
  // instead of rewriting the whole block. Blocks are split.
  `
  CREATE TABLE search_parts (
    transcript_id TEXT COLLATE "C" NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
    block_key TEXT COLLATE "C" NOT NULL,
    part INTEGER NOT NULL,
    text TEXT NOT NULL,
    lead TEXT NOT NULL,
    PRIMARY KEY (transcript_id, block_key, part)
  );
  INSERT INTO search_parts (transcript_id, block_key, part, text, lead)
    SELECT transcript_id, block_key, n - 1, substr(text, (n - 1) * 512 + 1, 512),
      CASE WHEN n = 1 THEN '' ELSE substr(text, (n - 1) * 512 - 62, 63) END
    FROM search_blocks,
      generate_series(1, greatest(1, ceil(char_length(text) / 512.0)::int)) AS n;
  DROP TABLE search_blocks;
  `,
  // The instance writing an import until it is shown (as SQLite's migration 10): an import its
  // server died in is purged once that instance's lease ends (`claimAbandonedImports`).
  `
  ALTER TABLE transcripts ADD COLUMN import_instance TEXT COLLATE "C";
  CREATE INDEX transcripts_importing ON transcripts (import_instance)
    WHERE import_instance IS NOT NULL;
  `,
];
