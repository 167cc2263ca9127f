/**
 * The SQLite schema as ordered migrations. `PRAGMA user_version` holds how many have run;
 * append new ones, never edit a released one. Timestamps are ms since epoch, JSON is text,
 * so the same layout maps onto PostgreSQL (BIGINT, JSONB) later.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE transcripts (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    -- foldForSearch(title): search compares folded text with instr(), no LIKE escaping.
    title_folded TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    deleted_at INTEGER,
    dialect TEXT NOT NULL,
    model_provider TEXT NOT NULL,
    model_id TEXT NOT NULL,
    system TEXT NOT NULL,
    tools TEXT NOT NULL,
    parent_id TEXT REFERENCES transcripts (id) ON DELETE SET NULL,
    fork_point INTEGER,
    -- The seq of the newest record; appends reserve seqs by bumping it.
    last_seq INTEGER NOT NULL DEFAULT 0
  ) STRICT;

  CREATE INDEX transcripts_recent ON transcripts (updated_at DESC, created_at DESC, id DESC)
    WHERE deleted_at IS NULL;

  CREATE TABLE records (
    transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    run_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (transcript_id, seq)
  ) STRICT, WITHOUT ROWID;

  -- Folded user/respond text per block; pieces of one block are appended to one row.
  CREATE TABLE search_blocks (
    transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
    block_key TEXT NOT NULL,
    text TEXT NOT NULL,
    PRIMARY KEY (transcript_id, block_key)
  ) STRICT, WITHOUT ROWID;

  CREATE TABLE relics (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    expires_at INTEGER,
    PRIMARY KEY (namespace, key)
  ) STRICT, WITHOUT ROWID;

  CREATE INDEX relics_expiry ON relics (expires_at) WHERE expires_at IS NOT NULL;
  `,
  // A user-defined dialect (docs/dialects/custom.md), as JSON; NULL for a built-in dialect.
  `
  ALTER TABLE transcripts ADD COLUMN definition TEXT;
  `,
  // Where a transcript came from (docs/capture-proxy.md). Imports were marked by a relic until now.
  `
  ALTER TABLE transcripts ADD COLUMN source TEXT NOT NULL DEFAULT 'playground'
    CHECK (source IN ('playground', 'import', 'capture'));
  UPDATE transcripts SET source = 'import'
    WHERE id IN (SELECT key FROM relics WHERE namespace = 'wirescope.imports');
  `,
  // Runs (docs/live-runs.md): a run with no ended_at when the server starts was cut off by a crash.
  `
  CREATE TABLE runs (
    run_id TEXT PRIMARY KEY,
    transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
    started_at INTEGER NOT NULL,
    ended_at INTEGER
  ) STRICT, WITHOUT ROWID;

  CREATE INDEX runs_unfinished ON runs (started_at) WHERE ended_at IS NULL;
  `,
  // Request messages stored once, in a prefix tree per transcript (message-trie.ts).
  `
  CREATE TABLE message_nodes (
    id INTEGER PRIMARY KEY,
    transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
    -- 0 is the root (the empty list); otherwise the node of the message before this one.
    parent INTEGER NOT NULL,
    -- One message as JSON text.
    body TEXT NOT NULL
  ) STRICT;

  CREATE INDEX message_nodes_children ON message_nodes (transcript_id, parent);

  -- A request's last message node (its body then holds "messages":[]); NULL otherwise and for
  -- requests written before this migration, which keep their messages inline.
  ALTER TABLE records ADD COLUMN messages_node INTEGER;
  -- A chunk's or request's turn, so continuing a conversation finds the next one unparsed.
  ALTER TABLE records ADD COLUMN turn INTEGER;
  UPDATE records SET turn = json_extract(body, '$.turn')
    WHERE kind <> 'event' AND json_type(body, '$.turn') = 'integer';
  CREATE INDEX records_turn ON records (transcript_id, turn) WHERE turn IS NOT NULL;
  `,
  // Several instances on one database: the instance running each run, stop requests sent
  // through the store, and each instance's lease (a run whose lease ended was cut off).
  `
  ALTER TABLE runs ADD COLUMN instance_id TEXT;
  ALTER TABLE runs ADD COLUMN stop_requested_at INTEGER;
  CREATE INDEX runs_unfinished_transcript ON runs (transcript_id) WHERE ended_at IS NULL;

  CREATE TABLE instances (
    instance_id TEXT PRIMARY KEY,
    lease_until INTEGER NOT NULL
  ) STRICT, WITHOUT ROWID;
  `,
  // The wide settings that rarely change (a system prompt is often kilobytes) leave the row
  // every append updates (last_seq, updated_at): a commit then rewrites a narrow row, not the
  // prompt's overflow pages. A rowid table: its rows are too wide for WITHOUT ROWID.
  `
  CREATE TABLE transcript_settings (
    transcript_id TEXT PRIMARY KEY REFERENCES transcripts (id) ON DELETE CASCADE,
    system TEXT NOT NULL,
    tools TEXT NOT NULL,
    definition TEXT
  ) STRICT;
  INSERT INTO transcript_settings (transcript_id, system, tools, definition)
    SELECT id, system, tools, definition FROM transcripts;
  ALTER TABLE transcripts DROP COLUMN system;
  ALTER TABLE transcripts DROP COLUMN tools;
  ALTER TABLE transcripts DROP COLUMN definition;
  `,
  // `records_turn` gave every chunk record an index entry, which live runs paid on every commit
  // (another leaf page per run: about a sixth of the pages a grouped commit wrote). Its one
  // reader, a conversation's highest turn (`selectLastTurn`), now reads where the transcript's
  // row says that record is: each append already rewrites that row (`reserveSeqs`), so keeping
  // the record of the highest turn there costs no page. Filled from the index before it goes.
  `
  ALTER TABLE transcripts ADD COLUMN last_turn INTEGER;
  ALTER TABLE transcripts ADD COLUMN last_turn_seq INTEGER;
  UPDATE transcripts SET (last_turn, last_turn_seq) = (
    SELECT turn, seq FROM records
    WHERE records.transcript_id = transcripts.id AND turn IS NOT NULL
    ORDER BY turn DESC, seq DESC LIMIT 1);
  DROP INDEX records_turn;
  `,
  // A block's search text in parts of at most 512 characters (`SEARCH_PART_CHARS`): an append
  // extends the last part instead of rewriting the whole block. Each part after a block's first
  // leads with the last 63 characters of the one before (`SEARCH_LEAD_CHARS`), so a short
  // query is found across a cut in one row. Blocks stored whole are split.
  `
  CREATE TABLE search_parts (
    transcript_id TEXT NOT NULL REFERENCES transcripts (id) ON DELETE CASCADE,
    block_key TEXT NOT NULL,
    part INTEGER NOT NULL,
    text TEXT NOT NULL,
    lead TEXT NOT NULL,
    PRIMARY KEY (transcript_id, block_key, part)
  ) STRICT, WITHOUT ROWID;
  -- NUL as U+FFFD first, as search text is folded now: substr() and length() stop at a NUL
  -- (and replace() cannot replace one: \`wirescope_fold_nul\`, sqlite-open.ts).
  UPDATE search_blocks SET text = wirescope_fold_nul(text) WHERE instr(text, char(0)) > 0;
  INSERT INTO search_parts (transcript_id, block_key, part, text, lead)
    WITH RECURSIVE split (transcript_id, block_key, part, text, lead, rest) AS (
      SELECT transcript_id, block_key, 0, substr(text, 1, 512), '', substr(text, 513)
      FROM search_blocks
      UNION ALL
      SELECT transcript_id, block_key, part + 1, substr(rest, 1, 512), substr(text, -63),
        substr(rest, 513)
      FROM split WHERE rest <> ''
    ) SELECT transcript_id, block_key, part, text, lead FROM split;
  DROP TABLE search_blocks;
  `,
  // The instance writing an import (until it is shown): an import its server died in is found
  // (`claimAbandonedImports`) and purged once that instance's lease ends. Most rows have none.
  `
  ALTER TABLE transcripts ADD COLUMN import_instance TEXT;
  CREATE INDEX transcripts_importing ON transcripts (import_instance)
    WHERE import_instance IS NOT NULL;
  `,
];
