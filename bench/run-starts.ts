/**
 * `npx tsx bench/run-starts.ts [runs] [message]`: what starting a run costs the server, apart
 * from streaming it. A bench server (`live-server.ts`, as `live-runs.ts` uses) is warmed up with
 * 20 whole runs, then gets `runs` (300) starts at once of `message` (default "hello") with the
 * demo's pace at its slowest (2 s a piece), so each run sends its `run` record and its request
 * record and then waits: the server's CPU from the first start until every run's first record
 * has arrived, per run. Three rounds, each on a fresh server and data directory. Figures are
 * printed, never asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { startBody, startServer } from "./live-client";
import { fixed, loadAverage } from "./table";

const runs = Number(process.argv[2] ?? 300);
const message = process.argv[3] ?? "hello";
const SLOWEST_PACE_MS = 2000;

const cpuUs = async (url: string) =>
  ((await (await fetch(`${url}/bench/cpu`)).json()) as { cpuUs: number }).cpuUs;

async function round(): Promise<number> {
  const dataDir = mkdtempSync(join(os.tmpdir(), "wirescope-run-starts-"));
  const server = await startServer(dataDir);
  try {
    const start = (index: number, paceMs: number) =>
      fetch(`${server.url}/api/runs`, {
        method: "POST",
        body: startBody(index, message, paceMs),
      });
    // Warm-up: module loading, JIT, SQLite pages; whole runs at pace 0.
    await Promise.all(Array.from({ length: 20 }, async (_, i) => (await start(i, 0)).text()));
    const before = await cpuUs(server.url);
    const responses = await Promise.all(
      Array.from({ length: runs }, (_, i) => start(i, SLOWEST_PACE_MS)),
    );
    const refused = responses.filter((response) => response.status !== 200).length;
    if (refused > 0) throw new Error(`${refused} starts were refused`);
    // The first read holds at least the `run` record.
    await Promise.all(responses.map((response) => response.body?.getReader().read()));
    const after = await cpuUs(server.url);
    return (after - before) / runs;
  } finally {
    server.child.kill("SIGINT");
    await new Promise((resolve) => server.child.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  console.log(`\nRun starts: ${runs} at once, "${message}", server CPU per start`);
  for (let index = 0; index < 3; index++) {
    const us = await round();
    console.log(`  round ${index + 1}: ${fixed(us / 1000, 2)} ms (load average ${loadAverage()})`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
