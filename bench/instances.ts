/**
 * `npm run bench:runs` (part 2): several instances on one database. Instance A runs 10 runs,
 * each publishing 150 records 15 ms apart; instance B follows every one of them through the
 * store (`RunTail`), one viewer each. Printed: the delay from a record being published on A to
 * B's viewer parsing it, p50/p95/max, for SQLite (polling every 100 ms, the default, and every
 * 20 ms) and PostgreSQL (the same polling, and LISTEN/NOTIFY), with A's own viewers beside them.
 *
 * Both instances live in this one process (two registries, each on its own connection or pool
 * to the database, as two servers are); a record's publish time rides in its `t` field.
 * PostgreSQL runs on a throwaway cluster (`lib/store/postgres-cluster.ts`), skipped with a
 * message where it is not installed. Figures are printed, never asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { readRunStream } from "../lib/client/run-stream";
import type { TranscriptRecord } from "../lib/protocol/records";
import { RunRegistry } from "../lib/server/run-registry";
import { openSqliteStore, type Store } from "../lib/store";
import { postgresSkipReason, startCluster } from "../lib/store/postgres-cluster";
import { openPostgresStore } from "../lib/store/postgres-store";
import { fixed, table } from "./table";

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const RECORDS = 150;
const PACE_MS = 15;
const LIMITS = { bufferBytes: 64 * 1024, maxLagBytes: 4 * 1024 * 1024 };
const clock = () => performance.now();
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Delays {
  local: number[];
  /** Publish on A to A's commit settling: the store's share of the delay. */
  stored: number[];
  remote: number[];
}

/** The store with each grouped commit timed: how long after its publish each chunk was stored. */
function timedCommits(store: Store, into: number[]): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property !== "appendRunRecords") return Reflect.get(target, property, receiver);
      return async (batches: Parameters<Store["appendRunRecords"]>[0]) => {
        const results = await target.appendRunRecords(batches);
        const at = clock();
        for (const batch of batches)
          for (const record of batch.records) if (record.kind === "chunk") into.push(at - record.t);
        return results;
      };
    },
  });
}

/** Reads a viewer's stream, noting for each chunk record how long after its publish it arrived. */
async function collect(stream: ReadableStream<Uint8Array>, into: number[]): Promise<void> {
  for await (const record of readRunStream(stream))
    if (record.kind === "chunk") into.push(clock() - record.t);
}

async function measure(store: Store, b: Store, pollMs: number): Promise<Delays> {
  const registryA = new RunRegistry(LIMITS, "bench-a");
  const registryB = new RunRegistry(LIMITS, "bench-b");
  registryB.pollMs = pollMs;
  // As a server does when it starts: subscribed (LISTEN) before anyone follows a run.
  registryB.watch(b);
  await pause(1000);
  const delays: Delays = { local: [], stored: [], remote: [] };
  const a = timedCommits(store, delays.stored);
  const runs = await Promise.all(
    Array.from({ length: RUNS }, async () => {
      const meta = await a.createTranscript({
        dialect: "xml",
        model: { provider: "demo", id: "x" },
      });
      return registryA.open({ store: a, transcriptId: meta.id, exclusive: true });
    }),
  );
  const viewers: Promise<void>[] = [];
  for (const run of runs) {
    viewers.push(collect(run.attach(0), delays.local));
    const followed = await registryB.follow(b, run.runId);
    if (followed === null) throw new Error("B cannot follow A's run");
    viewers.push(collect(followed.attach(0), delays.remote));
  }
  const producers = runs.map(async (run, index) => {
    // Staggered, so the runs' records do not all land on one poll.
    await pause((index * PACE_MS) / RUNS);
    for (let count = 0; count < RECORDS; count++) {
      const record: TranscriptRecord = {
        kind: "chunk",
        turn: 0,
        t: clock(),
        text: `piece ${count} `,
      };
      run.publish(record);
      await pause(PACE_MS);
    }
    await registryA.finish(run, a);
  });
  await Promise.all([...producers, ...viewers]);
  return delays;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? Number.NaN;
}

function row(name: string, delays: number[], stored: number[] = []): string[] {
  return [
    name,
    String(delays.length),
    fixed(percentile(delays, 0.5), 1),
    fixed(percentile(delays, 0.95), 1),
    fixed(Math.max(...delays), 1),
    stored.length === 0 ? "" : fixed(percentile(stored, 0.95), 1),
  ];
}

/** The store without its append notifications: B polls, as it does on SQLite. */
function pollingOnly(store: Store): Store {
  return new Proxy(store, {
    get: (target, property, receiver) =>
      property === "watchAppends" ? undefined : Reflect.get(target, property, receiver),
  });
}

async function main(): Promise<void> {
  // The followers' poll timers do not hold a process open (a server has its socket); this does.
  const keepAlive = setInterval(() => {}, 1000);
  const rows: string[][] = [];
  const directory = mkdtempSync(join(os.tmpdir(), "wirescope-bench-instances-"));
  try {
    for (const pollMs of [100, 20]) {
      const path = join(directory, `poll-${pollMs}.db`);
      const a = openSqliteStore({ path });
      const b = openSqliteStore({ path });
      const delays = await measure(a, b, pollMs);
      if (pollMs === 100) rows.push(row("SQLite: A's own viewers", delays.local));
      rows.push(row(`SQLite: B, polling every ${pollMs} ms`, delays.remote, delays.stored));
      await Promise.all([a.close(), b.close()]);
    }
    const skip = postgresSkipReason();
    if (skip !== undefined) console.log(`PostgreSQL skipped: ${skip}`);
    else {
      const cluster = await startCluster();
      try {
        for (const mode of ["poll 100", "poll 20", "notify"] as const) {
          const url = await cluster.createDatabase();
          const a = openPostgresStore({ connectionString: url });
          const b = openPostgresStore({ connectionString: url });
          await Promise.all([a.ready(), b.ready()]);
          const pollMs = mode === "poll 20" ? 20 : 100;
          const delays = await measure(a, mode === "notify" ? b : pollingOnly(b), pollMs);
          if (mode === "poll 100") rows.push(row("PostgreSQL: A's own viewers", delays.local));
          rows.push(
            row(
              mode === "notify"
                ? "PostgreSQL: B, LISTEN/NOTIFY (+ poll every 1 s)"
                : `PostgreSQL: B, polling every ${pollMs} ms`,
              delays.remote,
              delays.stored,
            ),
          );
          await Promise.all([a.close(), b.close()]);
        }
      } finally {
        cluster.stop();
      }
    }
  } finally {
    clearInterval(keepAlive);
    rmSync(directory, { recursive: true, force: true });
  }

  console.log(
    `\nSeveral instances: ${RUNS} runs × ${RECORDS} records (${PACE_MS} ms apart) on A, followed on B; ` +
      `delay from publish on A to B's viewer (load average ${os.loadavg()[0]?.toFixed(1)}, ${os.cpus().length} cores)\n`,
  );
  console.log(table(["path", "records", "p50 ms", "p95 ms", "max ms", "stored on A p95 ms"], rows));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
