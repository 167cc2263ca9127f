/**
 * `Store.listTranscriptRuns` on a 50,000-event transcript (`benchRecords`, ~120,000 records:
 * the UI bench's), stored as one run without a metric (an import) and as a conversation of
 * runs of ~200 events (a user message and a metric each): the query's time on SQLite and on a
 * throwaway PostgreSQL cluster (skipped when not installed), its plan (EXPLAIN QUERY PLAN /
 * EXPLAIN), and the first page's read (`readRecords`, 1,000 records) beside it for scale.
 * Figures only:
 *   npx tsx bench/transcript-runs.ts [rounds]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import type { TranscriptRecord } from "../lib/protocol";
import { postgresSkipReason, startCluster } from "../lib/store/postgres-cluster";
import { openPostgresStore } from "../lib/store/postgres-store";
import { PG_TRANSCRIPT_RUNS } from "../lib/store/postgres-transcript-runs";
import { openSqliteStore } from "../lib/store/sqlite-store";
import { TRANSCRIPT_RUNS_SQL } from "../lib/store/sqlite-transcript-runs";
import type { Store } from "../lib/store/store";
import { loadAverage } from "./table";
import { benchRecords } from "./ui-records";

const rounds = Number(process.argv[2] ?? 7);
const EPOCH = 1_700_000_000_000;

/** The records as runs of about `events` events: each opens with a user message, ends with a metric. */
function asRuns(
  records: readonly TranscriptRecord[],
  events: number,
): [string, TranscriptRecord[]][] {
  const runs: [string, TranscriptRecord[]][] = [];
  let current: TranscriptRecord[] = [];
  let count = 0;
  const close = () => {
    const at = EPOCH + runs.length * 60_000;
    current.push({
      kind: "event",
      event: {
        type: "metric",
        id: `m${runs.length}`,
        timestamp: at + 5000,
        step: { input: 1, output: 1, durationMs: 5000, ttftMs: 1 },
        total: { input: 1, output: 1, durationMs: 5000 },
      },
    });
    runs.push([`run-${runs.length}`, current]);
    current = [];
    count = 0;
  };
  for (const record of records) {
    if (current.length === 0) {
      const timestamp = EPOCH + runs.length * 60_000;
      current.push({
        kind: "event",
        event: { type: "user", id: `u${runs.length}`, timestamp, content: "go" },
      });
    }
    current.push(record);
    if (record.kind === "event" && ++count >= events && record.event.type !== "call") close();
  }
  if (current.length > 0) close();
  return runs;
}

async function fill(store: Store, runs: [string, TranscriptRecord[]][]): Promise<string> {
  const meta = await store.createTranscript({
    dialect: "xml",
    model: { provider: "demo", id: "demo" },
  });
  for (const [runId, records] of runs)
    for (let at = 0; at < records.length; at += 1000)
      await store.appendRecords(meta.id, runId, records.slice(at, at + 1000));
  return meta.id;
}

async function time(run: () => Promise<unknown>): Promise<string> {
  const times: number[] = [];
  await run();
  for (let round = 0; round < rounds; round++) {
    const began = performance.now();
    await run();
    times.push(performance.now() - began);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  return `${median.toFixed(1)} ms (${times[0]?.toFixed(1)}–${times.at(-1)?.toFixed(1)})`;
}

async function measure(label: string, store: Store, id: string): Promise<void> {
  const runs = (await store.listTranscriptRuns(id)) ?? [];
  const records = runs.reduce((sum, run) => sum + run.records, 0);
  console.log(`${label}: ${records} records, ${runs.length} runs`);
  console.log(`  listTranscriptRuns: ${await time(() => store.listTranscriptRuns(id))}`);
  console.log(
    `  first page (readRecords after 0, limit 1000): ${await time(() => store.readRecords(id, { after: 0, limit: 1000 }))}`,
  );
}

async function main(): Promise<void> {
  const records = benchRecords(50_000);
  const shapes: [string, [string, TranscriptRecord[]][]][] = [
    ["one run without a metric", [["bench", records]]],
    ["runs of ~200 events", asRuns(records, 200)],
  ];
  const directory = mkdtempSync(join(tmpdir(), "wirescope-transcript-runs-"));
  try {
    const path = join(directory, "bench.db");
    const sqlite = openSqliteStore({ path });
    const ids: string[] = [];
    for (const [label, runs] of shapes) {
      const id = await fill(sqlite, runs);
      ids.push(id);
      await measure(`SQLite, ${label}`, sqlite, id);
    }
    const db = new Database(path, { readonly: true });
    console.log("SQLite EXPLAIN QUERY PLAN:");
    for (const row of db.prepare(`EXPLAIN QUERY PLAN ${TRANSCRIPT_RUNS_SQL}`).all({ id: ids[0] }))
      console.log(`  ${(row as { detail: string }).detail}`);
    db.close();
    await sqlite.close();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }

  const skip = postgresSkipReason();
  if (skip !== undefined) {
    console.log(`PostgreSQL skipped: ${skip}`);
  } else {
    const cluster = await startCluster({ durable: false });
    try {
      const connectionString = await cluster.createDatabase();
      const store = openPostgresStore({ connectionString });
      const ids: string[] = [];
      for (const [label, runs] of shapes) {
        const id = await fill(store, runs);
        ids.push(id);
        await measure(`PostgreSQL, ${label}`, store, id);
      }
      await store.close();
      const { default: pg } = await import("pg");
      const client = new pg.Client({ connectionString });
      await client.connect();
      await client.query("SET jit = off");
      const plan = await client.query(
        `EXPLAIN ${process.env.ANALYZE === "1" ? "(ANALYZE, BUFFERS) " : ""}${PG_TRANSCRIPT_RUNS}`,
        [ids[1]],
      );
      console.log("PostgreSQL EXPLAIN (runs of ~200 events):");
      for (const row of plan.rows) console.log(`  ${row["QUERY PLAN"]}`);
      await client.end();
    } finally {
      cluster.stop();
    }
  }
  console.log(`load average ${loadAverage()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
