/**
 * `npx tsx bench/purge.ts [records]`: removing a refused import's records for good
 * (`Store.purgeTranscript`, SQLite): wall and CPU time, and the longest the event loop waited
 * meanwhile (the purge deletes 5,000 rows a statement, with the loop's turns between).
 * Figures are printed, never asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { openSqliteStore } from "../lib/store";
import { loadAverage } from "./table";

const records = Number(process.argv[2] ?? 300_000);
const BATCH = 10_000;

async function main(): Promise<void> {
  const directory = mkdtempSync(join(tmpdir(), "wirescope-purge-"));
  try {
    const store = openSqliteStore({ path: join(directory, "bench.db") });
    await store.createTranscript({
      dialect: "xml",
      model: { provider: "import", id: "x" },
      id: "x",
    });
    for (let at = 0; at < records; at += BATCH)
      await store.appendRecords(
        "x",
        "imported",
        Array.from({ length: Math.min(BATCH, records - at) }, (_, index) => ({
          kind: "chunk" as const,
          turn: 0,
          t: 0,
          text: `piece ${at + index} `,
        })),
      );
    await store.deleteTranscript("x");
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const cpu = process.cpuUsage();
    const began = performance.now();
    await store.purgeTranscript("x");
    const wall = performance.now() - began;
    const spent = process.cpuUsage(cpu);
    delay.disable();
    console.log(
      `${records.toLocaleString("en-US")} records purged: wall ${wall.toFixed(0)} ms, CPU ${((spent.user + spent.system) / 1000).toFixed(0)} ms, ` +
        `longest event-loop delay ${(delay.max / 1e6).toFixed(1)} ms (load average ${loadAverage()})`,
    );
    await store.close();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

void main();
