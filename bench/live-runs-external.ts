/**
 * `WIRESCOPE_BENCH_URL=http://127.0.0.1:3000 WIRESCOPE_BENCH_PID=<pid> npx tsx
 * bench/live-runs-external.ts [runs…]`: the live-run load of `live-runs.ts` against a server
 * that is already running — the one users start (`npm start`: Next in front of the same run
 * routes) — to set its figures beside the bench server's. Per round (100 and 300 concurrent
 * demo runs at pace 15 ms by default, one viewer each): time to the first record, p50/p95
 * (the first event comes in the same read), and with `WIRESCOPE_BENCH_PID` (Linux) the server process's CPU per record
 * from `/proc/<pid>/stat` (all its threads, user + system; 10 ms ticks). A warm-up round of
 * 5 runs comes first. Figures are printed, never asserted.
 */
import { readFileSync } from "node:fs";
import { clock, percentile, readFrames, startBody } from "./live-client";
import { fixed, loadAverage, table } from "./table";

const url = process.env.WIRESCOPE_BENCH_URL;
const pid = process.env.WIRESCOPE_BENCH_PID;
const rounds = process.argv
  .slice(2)
  .map(Number)
  .filter((runs) => runs > 0);

/** The process's CPU time in µs (user + system, every thread), or NaN without a pid. */
function cpuUs(): number {
  if (pid === undefined) return Number.NaN;
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / 100; // USER_HZ is 100 on Linux
}

async function load(base: string, runs: number) {
  const firstRecord: number[] = [];
  let records = 0;
  const cpuBefore = cpuUs();
  const began = clock();
  await Promise.all(
    Array.from({ length: runs }, async (_, index) => {
      const sent = clock();
      const response = await fetch(`${base}/api/runs`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: startBody(index),
      });
      if (!response.ok)
        throw new Error(`POST /api/runs: ${response.status} ${await response.text()}`);
      const frames = await readFrames(response, (frame, _data, at) => {
        if (frame === 0) firstRecord.push(at - sent);
      });
      records += frames - 1; // the `run` record is not one of the run's records
    }),
  );
  const wall = clock() - began;
  return {
    records,
    cpuPerRecordUs: (cpuUs() - cpuBefore) / records,
    firstRecord,
    wall,
  };
}

async function main(): Promise<void> {
  if (url === undefined) throw new Error("Set WIRESCOPE_BENCH_URL to the running server's URL.");
  const base = url.replace(/\/$/, "");
  console.log(`\nWirescope live-run load against ${base} (demo model, pace 15 ms)`);
  await load(base, 5);
  const rows: string[][] = [];
  for (const runs of rounds.length > 0 ? rounds : [100, 300]) {
    const result = await load(base, runs);
    const p = (values: number[]) =>
      `${fixed(percentile(values, 0.5), 0)} / ${fixed(percentile(values, 0.95), 0)}`;
    rows.push([
      String(runs),
      String(result.records),
      Number.isNaN(result.cpuPerRecordUs) ? "—" : fixed(result.cpuPerRecordUs, 1),
      p(result.firstRecord),
      fixed(result.wall / 1000, 1),
    ]);
  }
  console.log(
    table(["runs", "records", "server CPU µs/record", "first record p50/p95 ms", "wall s"], rows),
  );
  console.log(`load average ${loadAverage()}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
