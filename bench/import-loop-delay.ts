/**
 * `npx tsx bench/import-loop-delay.ts`: how long an import holds the event loop (what every
 * other request of the server waits for meanwhile: a proxied agent's first byte, a page). A
 * transcript file of 1,000,000 one-character chunk lines (43 MB) and 38 MB of raw hermes text
 * are imported into a fresh SQLite store, read in 4 MiB pieces as a fast client's upload
 * arrives. Prints the import's wall and CPU time and the event loop's worst and p99 delay.
 * Asserts nothing.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Readable } from "node:stream";
import { openSqliteStore } from "../lib/store";
import { importJsonlStream } from "../lib/transcripts/jsonl-import";
import { importRawTextStream } from "../lib/transcripts/raw-text-import";
import { table } from "./table";

const PIECE = 4 * 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), "wirescope-import-delay-"));

function files(): { jsonl: string; raw: string } {
  const header = {
    format: "wirescope-transcript",
    version: 1,
    id: "bench",
    title: "1,000,000 lines",
    created: 0,
    dialect: "xml",
    model: { provider: "demo", id: "scripted" },
    system: "",
    tools: [],
  };
  const jsonl = join(dir, "lines.jsonl");
  writeFileSync(
    jsonl,
    `${JSON.stringify(header)}\n${'{"kind":"chunk","turn":0,"t":0,"text":"a"}\n'.repeat(1_000_000)}`,
  );
  const words = ["<think>", "</think>", "hello", "world", "<tool_call>", "</tool_call>", "\n"];
  const call = '{"name": "list", "arguments": {"path": "."}}';
  let text = "";
  for (let index = 0; text.length < 38_000_000; index++)
    text += `${index % 7 === 4 ? call : words[(index * 5) % words.length]} `;
  const raw = join(dir, "raw.txt");
  writeFileSync(raw, text);
  return { jsonl, raw };
}

async function measure(
  name: string,
  run: (body: ReadableStream<Uint8Array>) => Promise<unknown>,
  file: string,
) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const cpu = process.cpuUsage();
  const started = performance.now();
  delay.enable();
  await run(
    Readable.toWeb(createReadStream(file, { highWaterMark: PIECE })) as ReadableStream<Uint8Array>,
  );
  delay.disable();
  const used = process.cpuUsage(cpu);
  return {
    import: name,
    "wall s": ((performance.now() - started) / 1000).toFixed(1),
    "cpu s": ((used.user + used.system) / 1e6).toFixed(1),
    "loop delay max ms": (delay.max / 1e6).toFixed(0),
    "p99 ms": (delay.percentile(99) / 1e6).toFixed(0),
  };
}

async function main(): Promise<void> {
  try {
    const { jsonl, raw } = files();
    const store = openSqliteStore({ path: join(dir, "wirescope.db") });
    const rows = [
      await measure("jsonl, 1,000,000 lines", (body) => importJsonlStream(store, body), jsonl),
      await measure(
        "raw text, 38 MB",
        (body) => importRawTextStream(store, body, { maxBytes: 1 << 30 }),
        raw,
      ),
    ];
    await store.close();
    console.log(
      table(
        Object.keys(rows[0] ?? {}),
        rows.map((row) => Object.values(row)),
      ),
    );
    console.log(
      `load average ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(" ")}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
