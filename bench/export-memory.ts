/**
 * `npx tsx bench/export-memory.ts [root…]`: the peak RSS of a server process downloading a
 * long transcript (~126,000 events, ~245,000 records, each respond piece after its raw chunk,
 * ~700 runs) from a SQLite data directory, per format (the whole `GET /api/transcripts/:id`,
 * JSONL, Markdown, TaskSteps, OTLP, OTLP with content) and for 4 OTLP-with-content downloads
 * at once. Each figure is a fresh process (`export-memory-child.ts`) calling the route
 * handlers of a checkout (default: this one; name several, e.g. a copy of main, to compare
 * them interleaved). Prints figures; asserts nothing.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openSqliteStore } from "../lib/store";
import { groupByRun } from "../lib/transcripts/fork";
import { fileRecordOf } from "../lib/transcripts/header";
import { sampleTranscript } from "../lib/transcripts/testing";
import { streamedLargeTranscript } from "./storage-bench";
import { table } from "./table";

const EVENTS = Number(process.env.EXPORT_BENCH_EVENTS ?? 126_000);
const CASES: [format: string, count: number][] = [
  ["whole", 1],
  ["jsonl", 1],
  ["markdown", 1],
  ["tasksteps", 1],
  ["otlp", 1],
  ["otlp+content", 1],
  ["otlp+content", 4],
];

interface Figure {
  results: { status: number; bytes: number; sha256: string; failed?: string }[];
  wallMs: number;
  cpuMs: number;
  baseMb: number;
  peakMb: number;
}

async function buildDataDir(
  directory: string,
): Promise<{ id: string; warmId: string; records: number }> {
  const store = openSqliteStore({ path: join(directory, "wirescope.db") });
  const transcript = streamedLargeTranscript(EVENTS);
  const { records } = transcript;
  const { meta } = transcript;
  const create = {
    dialect: meta.dialect,
    model: meta.model,
    system: meta.system,
    tools: meta.tools,
  };
  const long = await store.createTranscript({ ...create, title: "Long" });
  for (const group of groupByRun(records.map(fileRecordOf), "bench"))
    for (let at = 0; at < group.records.length; at += 1000)
      await store.appendRecords(long.id, group.runId, group.records.slice(at, at + 1000));
  const small = await store.createTranscript({ ...create, title: "Warm-up" });
  const sample = sampleTranscript().records.map(fileRecordOf);
  await store.appendRecords(small.id, "warm", sample);
  await store.close();
  return { id: long.id, warmId: small.id, records: records.length };
}

function measureOnce(
  root: string,
  dataDir: string,
  ids: { id: string; warmId: string },
  format: string,
  count: number,
): Figure {
  const child = resolve(import.meta.dirname, "export-memory-child.ts");
  const out = execFileSync(
    process.execPath,
    ["--import", "tsx", child, root, ids.id, ids.warmId, format, String(count)],
    {
      cwd: root,
      env: { ...process.env, WIRESCOPE_DATA_DIR: dataDir },
      maxBuffer: 1 << 20,
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  const line = out.toString().trim().split("\n").at(-1) ?? "{}";
  return JSON.parse(line) as Figure;
}

async function main(): Promise<void> {
  const roots =
    process.argv.length > 2 ? process.argv.slice(2).map((root) => resolve(root)) : [process.cwd()];
  const dataDir = mkdtempSync(join(tmpdir(), "wirescope-export-bench-"));
  try {
    const ids = await buildDataDir(dataDir);
    console.log(
      `${ids.records} records, ${EVENTS} events; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    const rows: string[][] = [];
    for (const [format, count] of CASES)
      for (const root of roots) {
        const figure = measureOnce(root, dataDir, ids, format, count);
        const first = figure.results[0];
        rows.push([
          `${format}${count > 1 ? ` ×${count}` : ""}`,
          root,
          `${first?.status ?? "?"}${first?.failed === undefined ? "" : " (cut)"}`,
          (figure.results.reduce((sum, result) => sum + result.bytes, 0) / 1e6).toFixed(1),
          first?.sha256 ?? "",
          String(figure.baseMb),
          String(figure.peakMb),
          String(figure.cpuMs),
          String(figure.wallMs),
          os.loadavg()[0]?.toFixed(2) ?? "",
        ]);
        console.log(rows.at(-1)?.join("  "));
      }
    console.log(
      table(
        [
          "download",
          "checkout",
          "status",
          "MB sent",
          "sha256 (first download)",
          "RSS before MB",
          "peak RSS MB",
          "CPU ms",
          "wall ms",
          "load",
        ],
        rows,
      ),
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
