import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import { DIALECTS, type Dialect, parseAll } from "../lib/protocol";
import { appendBench } from "./append-bench";
import { type Corpus, generateCorpus, SEED } from "./corpus";
import { floors } from "./floors";
import { middlewareComparison } from "./middleware-bench";
import {
  jsonParseReference,
  type LinearityRow,
  linearity,
  parserThroughput,
  type ThroughputRow,
  warmUp,
} from "./parser-bench";
import { printProxyBench, proxyBench } from "./proxy-bench";
import { actionStartLatency, parallelBatch } from "./runtime-bench";
import { readFigures, storageGrowth } from "./storage-bench";
import { fixed, table } from "./table";
import { MB } from "./timing";

/**
 * `npm run bench`: prints parser figures and writes them to bench/out/parser.json. It never
 * asserts; the floors at the end are informational and the exit code is 0 either way.
 */
const CHUNK_SIZES = [1, 4, 64, null] as const;
const LINEARITY_CHUNK = 4;
const MIDDLEWARE_CHUNKS = [64, 4] as const;

async function main(): Promise<void> {
  const began = performance.now();
  const cpu = os.cpus()[0]?.model ?? "unknown CPU";
  console.log("Wirescope parser bench");
  console.log(`node ${process.version}, ${os.cpus().length} × ${cpu}`);
  console.log(
    "MB = 1e6 UTF-16 code units (string length), not bytes. Figures are medians after warm-up.\n",
  );

  const small = new Map<Dialect, Corpus>();
  const large = new Map<Dialect, Corpus>();
  for (const dialect of DIALECTS) {
    small.set(dialect, generateCorpus(dialect, 1 * MB));
    large.set(dialect, generateCorpus(dialect, 2 * MB));
  }
  const corpus = DIALECTS.map((dialect) => summarize(must(small, dialect), must(large, dialect)));
  console.log(`Corpus (seed 0x${SEED.toString(16)}; the 1 MB text is a prefix of the 2 MB one)`);
  console.log(
    table(
      ["dialect", "1 MB chars", "turns", "events", "error events", "2 MB chars"],
      corpus.map((c) => [
        c.dialect,
        String(c.length),
        String(c.turns),
        String(c.events),
        c.errors,
        String(c.largeLength),
      ]),
    ),
  );

  const texts = new Map(DIALECTS.map((dialect) => [dialect, must(small, dialect).text]));
  warmUp(texts, CHUNK_SIZES);

  const throughputRows: ThroughputRow[] = [];
  for (const dialect of DIALECTS) {
    throughputRows.push(
      ...(await parserThroughput(dialect, must(small, dialect).text, CHUNK_SIZES)),
    );
  }
  console.log(
    "\nParser throughput, MB/s (1 MB text, createParser + feed loop + end, events counted)",
  );
  console.log(
    table(
      ["dialect", "1 char", "4 chars", "64 chars", "whole text"],
      DIALECTS.map((dialect) => [
        dialect,
        ...CHUNK_SIZES.map((chunk) => {
          const row = throughputRows.find((r) => r.dialect === dialect && r.chunk === chunk);
          return row === undefined ? "-" : `${fixed(row.mbPerSecond)} (${row.runs})`;
        }),
      ]),
    ),
  );
  console.log("(n) = measured runs");

  const linearityRows: LinearityRow[] = [];
  for (const dialect of DIALECTS) {
    const text = must(small, dialect).text;
    linearityRows.push(await linearity(dialect, text, must(large, dialect).text, LINEARITY_CHUNK));
  }
  console.log(
    `\nLinearity, ${LINEARITY_CHUNK}-char chunks: time(2 MB) / time(1 MB); ≈ length ratio when linear`,
  );
  console.log(
    table(
      ["dialect", "1 MB ms", "2 MB ms", "time ratio", "length ratio"],
      linearityRows.map((r) => [
        r.dialect,
        fixed(r.smallMs),
        fixed(r.largeMs),
        fixed(r.ratio, 2),
        fixed(r.lengthRatio, 2),
      ]),
    ),
  );

  const xml = must(small, "xml").text;
  const middlewareRows = await middlewareComparison(xml, MIDDLEWARE_CHUNKS);
  console.log('\nAI SDK extractReasoningMiddleware({ tagName: "think" }) vs our xml parser, MB/s');
  console.log(
    "(same 1 MB xml text, same chunks, runs interleaved; streams read from a pull ReadableStream)",
  );
  const variants = [...new Set(middlewareRows.map((r) => r.variant))];
  console.log(
    table(
      ["variant", ...MIDDLEWARE_CHUNKS.flatMap((c) => [`${c} chars MB/s`, "ms"])],
      variants.map((variant) => [
        variant,
        ...MIDDLEWARE_CHUNKS.flatMap((chunk) => {
          const row = middlewareRows.find((r) => r.variant === variant && r.chunk === chunk);
          return row === undefined ? ["-", "-"] : [fixed(row.mbPerSecond), fixed(row.medianMs)];
        }),
      ]),
    ),
  );
  console.log(
    "(the identity row is the stream plumbing alone; a variant minus it is its own work)",
  );

  const json = await jsonParseReference(xml);
  console.log(
    `\nReference: JSON.parse of the ${json.blocks} execute bodies of the xml text as one array ` +
      `(${json.length} chars): ${fixed(json.mbPerSecond)} MB/s`,
  );

  const latency = await actionStartLatency();
  console.log(
    "\nRuntime: </action> arriving → its tool starting, model still streaming (4-char chunks, 1 ms apart)",
  );
  console.log(
    table(
      ["actions", "median ms", "p95 ms", "max ms"],
      [
        [
          String(latency.actions),
          fixed(latency.medianMs, 3),
          fixed(latency.p95Ms, 3),
          fixed(latency.maxMs, 3),
        ],
      ],
    ),
  );
  const parallel = await parallelBatch([1, 8, 32]);
  console.log("\nRuntime: N calls of a 200 ms tool in one batch (parallel ≈ 200 ms)");
  console.log(
    table(
      ["tools", "tool ms", "wall ms"],
      parallel.map((row) => [String(row.tools), String(row.toolMs), fixed(row.wallMs)]),
    ),
  );

  const proxy = await proxyBench([1, 50]);
  printProxyBench(proxy);
  const storage = await storageGrowth(100);
  console.log(
    "\nStorage: one conversation of 100 demo runs vs 100 one-run conversations, same messages",
  );
  console.log(
    table(
      [
        "runs",
        "one conv. bytes",
        "separate bytes",
        "ratio",
        "export bytes",
        "1st record ms (runs 1–10 / 91–100)",
      ],
      [
        [
          String(storage.runs),
          String(storage.oneConversationBytes),
          String(storage.separateBytes),
          fixed(storage.ratio, 2),
          String(storage.exportBytes),
          `${fixed(storage.firstRecordMsEarly)} / ${fixed(storage.firstRecordMsLate)}`,
        ],
      ],
    ),
  );
  console.log(
    "(SQLite file bytes after VACUUM; the export refers to earlier requests, so it grows linearly too)",
  );
  const reads = await readFigures(50_000);
  console.log(
    `\nReading a ${reads.events}-event transcript (${reads.records} records) back from SQLite`,
  );
  console.log(
    table(
      ["read", "ms", "JSON bytes"],
      [
        ["whole (GET without limit)", fixed(reads.wholeMs), String(reads.wholeBytes)],
        ["tail page (limit=500&from=end)", fixed(reads.tailMs), String(reads.tailBytes)],
        ["conversation projection (continuing)", fixed(reads.conversationMs), "-"],
      ],
    ),
  );

  const appends = await appendBench();
  console.log(
    "\nAppends per second, SQLite (WAL, synchronous NORMAL) vs PostgreSQL (a local throwaway " +
      "cluster: durable commits, then synchronous_commit=off), one record ≈ 170 bytes of JSON",
  );
  console.log(
    table(
      ["store", "how", "records", "commits", "records/s", "commits/s"],
      appends.rows.map((row) => [
        row.store,
        row.mode,
        String(row.records),
        String(row.commits),
        fixed(row.recordsPerSecond, 0),
        fixed(row.commitsPerSecond, 0),
      ]),
    ),
  );
  if (appends.skipped !== undefined) console.log(appends.skipped);

  const results = floors(throughputRows, linearityRows, middlewareRows);
  results.push(
    {
      pass: latency.maxMs < 5,
      text: `action start delay < 5 ms (max over ${latency.actions}): ${fixed(latency.maxMs, 3)} ms`,
    },
    ...parallel.map((row) => ({
      pass: row.wallMs < row.toolMs * 1.25,
      text: `${row.tools} parallel ${row.toolMs} ms tools ≈ ${row.toolMs} ms: ${fixed(row.wallMs)} ms`,
    })),
    ...proxy.flatMap((row) => [
      {
        pass: row.addedChunkP50 < 0.5,
        text: `proxy, ${row.streams} stream(s): added delay per chunk p50 < 0.5 ms: ${fixed(row.addedChunkP50, 3)} ms`,
      },
      {
        pass: row.addedTtfbP50 < 5,
        text: `proxy, ${row.streams} stream(s): added time to first byte p50 < 5 ms: ${fixed(row.addedTtfbP50, 2)} ms`,
      },
    ]),
    {
      pass: storage.ratio <= 1.5,
      text: `stored bytes of a ${storage.runs}-run conversation ≤ 1.5× ${storage.runs} one-run conversations: ${fixed(storage.ratio, 2)}×`,
    },
  );
  console.log("\nFloors from the issue (informational; exit code is 0 either way)");
  for (const floor of results) console.log(`${floor.pass ? "PASS" : "MISS"}  ${floor.text}`);

  const seconds = (performance.now() - began) / 1000;
  mkdirSync("bench/out", { recursive: true });
  const report = {
    unit: "MB = 1e6 UTF-16 code units",
    node: process.version,
    cpu: { model: cpu, count: os.cpus().length },
    seed: SEED,
    corpus,
    throughput: throughputRows,
    linearity: linearityRows,
    middleware: middlewareRows,
    jsonParse: json,
    runtime: { actionStartLatency: latency, parallelBatch: parallel },
    proxy,
    storage,
    reads,
    appends: appends.rows,
    floors: results,
    seconds,
  };
  writeFileSync("bench/out/parser.json", `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nWrote bench/out/parser.json (${fixed(seconds)} s in all).`);
}

function summarize(corpus: Corpus, large: Corpus) {
  const errors = new Map<string, number>();
  const events = parseAll(corpus.dialect, corpus.text);
  for (const event of events) {
    if (event.type === "error") errors.set(event.code, (errors.get(event.code) ?? 0) + 1);
  }
  const summary = [...errors].map(([code, count]) => `${count} ${code}`).join(", ");
  return {
    dialect: corpus.dialect,
    length: corpus.text.length,
    turns: corpus.turns,
    events: events.length,
    errors: summary === "" ? "none" : summary,
    largeLength: large.text.length,
  };
}

function must<T>(map: Map<Dialect, T>, dialect: Dialect): T {
  const value = map.get(dialect);
  if (value === undefined) throw new Error(`No corpus for ${dialect}.`);
  return value;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
