/**
 * `npx tsx bench/live-store.ts [runs] [ticks] [chars] [perRun]`: the store's side of the live-run load alone —
 * the grouped commits of `record-writer.ts` as 300 demo runs make them (each commit holds
 * every run's last few records: a piece or two, a chunk), on a SQLite file, with the demo's
 * ~5 KB system prompt in each transcript. Prints CPU µs per record and per commit. `chars`: each
 * piece's length (default: a word, ~8); longer pieces make long responses, whose search text grows
 * commit after commit. `perRun`: each run's records in a commit (default 3, what a 100 ms wait held
 * at 300 runs); a commit's cost is mostly per run in it, so this is what the CPU per record follows.
 * Figures are printed, never asserted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { openSqliteStore, type RunRecordBatch, type TranscriptRecord } from "../lib/store";
import { loadAverage } from "./table";

const runs = Number(process.argv[2] ?? 300);
const ticks = Number(process.argv[3] ?? 200);
const pieceChars = Number(process.argv[4] ?? 0);
const PER_RUN = Number(process.argv[5] ?? 3);
const SYSTEM = `You are a careful agent. ${"Use the tools when they help. ".repeat(170)}`;

/** A run's records as the demo streams them: raw chunks and the respond pieces parsed from them. */
function record(run: number, index: number): TranscriptRecord {
  const text = `word${index} `.padEnd(pieceChars, "x");
  if (index % 2 === 0) return { kind: "chunk", turn: 0, t: index * 15, text };
  const start = index * 8;
  return {
    kind: "event",
    event: {
      type: "respond",
      id: `r${run}-respond`,
      timestamp: 1_700_000_000_000 + index,
      turn: 0,
      span: { start, end: start + text.length },
      content: text,
    },
  };
}

async function main(): Promise<void> {
  const directory = mkdtempSync(join(os.tmpdir(), "wirescope-live-store-"));
  try {
    const store = openSqliteStore({ path: join(directory, "bench.db") });
    const ids: string[] = [];
    for (let run = 0; run < runs; run++) {
      const meta = await store.createTranscript({
        title: `run ${run}`,
        dialect: "xml",
        model: { provider: "demo", id: "demo" },
        system: SYSTEM,
        tools: ["read_file", "list_files", "calculate", "write_file"],
      });
      ids.push(meta.id);
    }
    let records = 0;
    const began = process.cpuUsage();
    for (let tick = 0; tick < ticks; tick++) {
      const batches: RunRecordBatch[] = ids.map((transcriptId, run) => ({
        transcriptId,
        runId: `run-${run}`,
        records: Array.from({ length: PER_RUN }, (_, i) => record(run, tick * PER_RUN + i)),
      }));
      records += runs * PER_RUN;
      await store.appendRunRecords(batches);
    }
    const spent = process.cpuUsage(began);
    const us = spent.user + spent.system;
    console.log(
      `${runs} runs × ${ticks} commits × ${PER_RUN} records of ${pieceChars || "~8"} characters: ${(us / records).toFixed(1)} µs/record, ` +
        `${(us / ticks / 1000).toFixed(2)} ms/commit (load average ${loadAverage()})`,
    );
    await store.close();
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

void main();
