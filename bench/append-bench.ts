import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  openPostgresStore,
  openSqliteStore,
  type Store,
  type TranscriptRecord,
} from "../lib/store";
import { postgresSkipReason, startCluster } from "../lib/store/postgres-cluster";

export interface AppendRow {
  store: string;
  /** How the records were written. */
  mode: string;
  records: number;
  commits: number;
  seconds: number;
  recordsPerSecond: number;
  commitsPerSecond: number;
}

const SINGLE = 2000;
const GROUPED_CALLS = 250;
const RUNS = 8;
const PER_BATCH = 4;
const PARALLEL_EACH = 250;

function piece(index: number): TranscriptRecord {
  const content = `piece ${index} of a streamed answer, with some words in it`;
  return {
    kind: "event",
    event: {
      type: "respond",
      // A new answer every 20 pieces, as a run streams them.
      id: `r${Math.floor(index / 20)}`,
      timestamp: 0,
      turn: 0,
      span: { start: index, end: index + content.length },
      content,
    },
  };
}

/**
 * Appends per second on one store: one record per `appendRecords` call (one commit each),
 * `appendRunRecords` with 8 runs' batches of 4 records per call (how a server groups live
 * runs), and 8 writers appending one record per call at once, each to its own transcript.
 */
async function appendFigures(label: string, store: Store): Promise<AppendRow[]> {
  const ids: string[] = [];
  for (let run = 0; run < RUNS; run++) {
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "demo" },
    });
    ids.push(meta.id);
  }
  const row = (mode: string, records: number, commits: number, ms: number): AppendRow => ({
    store: label,
    mode,
    records,
    commits,
    seconds: ms / 1000,
    recordsPerSecond: (records * 1000) / ms,
    commitsPerSecond: (commits * 1000) / ms,
  });
  const first = ids[0] as string;
  // Warm-up: connections opened, statements planned.
  for (let index = 0; index < 50; index++) await store.appendRecords(first, "warm", [piece(index)]);

  let start = performance.now();
  for (let index = 0; index < SINGLE; index++)
    await store.appendRecords(first, "single", [piece(index)]);
  const single = row("appendRecords, 1 record per call", SINGLE, SINGLE, performance.now() - start);

  start = performance.now();
  for (let call = 0; call < GROUPED_CALLS; call++)
    await store.appendRunRecords(
      ids.map((transcriptId, run) => ({
        transcriptId,
        runId: `run-${run}`,
        records: Array.from({ length: PER_BATCH }, (_, index) => piece(call * PER_BATCH + index)),
      })),
    );
  const grouped = row(
    `appendRunRecords, ${RUNS} runs × ${PER_BATCH} records per call`,
    GROUPED_CALLS * RUNS * PER_BATCH,
    GROUPED_CALLS,
    performance.now() - start,
  );

  start = performance.now();
  await Promise.all(
    ids.map(async (transcriptId) => {
      for (let index = 0; index < PARALLEL_EACH; index++)
        await store.appendRecords(transcriptId, "parallel", [piece(index)]);
    }),
  );
  const parallel = row(
    `${RUNS} writers at once, 1 record per call`,
    RUNS * PARALLEL_EACH,
    RUNS * PARALLEL_EACH,
    performance.now() - start,
  );
  return [single, grouped, parallel];
}

/** SQLite (a file in a temp directory) and, when installed, PostgreSQL (a throwaway cluster). */
export async function appendBench(): Promise<{ rows: AppendRow[]; skipped?: string }> {
  const directory = mkdtempSync(join(tmpdir(), "wirescope-append-bench-"));
  const rows: AppendRow[] = [];
  try {
    const sqlite = openSqliteStore({ path: join(directory, "append.db") });
    rows.push(...(await appendFigures("sqlite", sqlite)));
    await sqlite.close();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
  const skipped = postgresSkipReason();
  if (skipped !== undefined) return { rows, skipped };
  // Durable commits (the server's defaults), as a team's server would run; then with
  // synchronous_commit off (a commit is not waited on the disk: closer to SQLite's NORMAL).
  const cluster = await startCluster({ durable: true });
  try {
    for (const [label, options] of [
      ["postgres", ""],
      ["postgres, synchronous_commit=off", "?options=-c%20synchronous_commit%3Doff"],
    ] as const) {
      const url = await cluster.createDatabase();
      const postgres = openPostgresStore({ connectionString: url + options });
      await postgres.ready();
      rows.push(...(await appendFigures(label, postgres)));
      await postgres.close();
    }
  } finally {
    cluster.stop();
  }
  return { rows };
}
