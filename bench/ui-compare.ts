/**
 * `npm run bench:compare`: the compare view in Chromium, printed, never asserted.
 * Two 2,000-event transcripts (xml turns from the bench corpus, 24-character chunks; B has a
 * third of its turns written differently and a few characters changed in others) are imported,
 * then `/compare?a=&b=` is opened at 1440×900: time to the first row painted (goal < 1 s),
 * to the first row's character marks, the longest main-thread task; and in Node, the
 * alignment of the two and the character diff of the largest pair of turns.
 * It starts the production build on `WIRESCOPE_BENCH_PORT` (default 3300).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../e2e/chromium";
import { alignTranscripts, diffText, exchangesOf } from "../lib/compare";
import type { TranscriptRecord } from "../lib/protocol";
import { generateCorpus } from "./corpus";
import { table } from "./table";
import { benchTranscriptFile, pushStreamedTurn, type TurnSink } from "./ui-records";

const PORT = Number(process.env.WIRESCOPE_BENCH_PORT ?? 3300);
const EVENTS = Number(process.env.WIRESCOPE_BENCH_COMPARE_EVENTS ?? 2_000);

/** Turn text for side B: the same as A's, rewritten (a third of turns) or lightly edited. */
function turnText(turn: number, side: "a" | "b"): string {
  const text = generateCorpus("xml", 700, 1000 + turn).text;
  if (side === "a" || turn % 3 === 1) return text;
  if (turn % 3 === 2) return generateCorpus("xml", 700, 9000 + turn).text;
  // A few characters changed inside quoted text keeps the markers valid.
  return text.replaceAll("the ", "one ");
}

function records(events: number, side: "a" | "b"): TranscriptRecord[] {
  const sink: TurnSink = { out: [], count: 0, t: 0 };
  for (let turn = 0; sink.count < events; turn++) {
    if (turn % 10 === 0) {
      sink.out.push({
        kind: "event",
        event: {
          type: "user",
          id: `u${turn}`,
          timestamp: sink.t,
          content: `Step ${turn / 10}: go on.`,
        },
      });
      sink.count++;
    }
    pushStreamedTurn(sink, turn, turnText(turn, side), (t) => t);
  }
  return sink.out;
}

async function importTranscript(
  base: string,
  title: string,
  list: TranscriptRecord[],
): Promise<string> {
  const response = await fetch(`${base}/api/transcripts/import`, {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body: benchTranscriptFile(list, title, { title, modelId: "scripted" }),
  });
  if (response.status !== 201) throw new Error(`import refused: ${await response.text()}`);
  return ((await response.json()) as { transcript: { id: string } }).transcript.id;
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function nodeFigures(a: TranscriptRecord[], b: TranscriptRecord[]) {
  const times: number[] = [];
  let rows = alignTranscripts(exchangesOf(a), exchangesOf(b));
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    rows = alignTranscripts(exchangesOf(a), exchangesOf(b));
    times.push(performance.now() - start);
  }
  const largest = rows.reduce((best, row) => {
    const size = (row.a?.raw.length ?? 0) + (row.b?.raw.length ?? 0);
    const bestSize = (best?.a?.raw.length ?? 0) + (best?.b?.raw.length ?? 0);
    return size > bestSize && row.a !== undefined && row.b !== undefined && row.a.raw !== row.b.raw
      ? row
      : best;
  }, rows[0]);
  const diffTimes: number[] = [];
  let mode = "";
  for (let round = 0; round < 5; round++) {
    const start = performance.now();
    mode = diffText(largest?.a?.raw ?? "", largest?.b?.raw ?? "").mode;
    diffTimes.push(performance.now() - start);
  }
  return {
    rows: rows.length,
    alignMs: median(times),
    largestChars: `${largest?.a?.raw.length ?? 0} / ${largest?.b?.raw.length ?? 0}`,
    diffMs: median(diffTimes),
    mode,
  };
}

async function main(): Promise<void> {
  if (!existsSync(".next/BUILD_ID")) spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  const a = records(EVENTS, "a");
  const b = records(EVENTS, "b");
  const node = nodeFigures(a, b);
  const server: ChildProcess = spawn(
    "npx",
    ["next", "start", "-H", "127.0.0.1", "-p", String(PORT)],
    {
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        WIRESCOPE_DATA_DIR: mkdtempSync(join(tmpdir(), "wirescope-compare-bench-")),
      },
      stdio: "ignore",
      detached: true,
    },
  );
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const base = `http://127.0.0.1:${PORT}`;
    await waitForServer(`${base}/api/config`);
    const idA = await importTranscript(base, "bench-compare-a", a);
    const idB = await importTranscript(base, "bench-compare-b", b);
    const url = `${base}/compare?a=${idA}&b=${idB}`;
    // A first visit warms the server (route compiled into memory, the store's pages cached).
    const warm = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await warm.goto(url);
    await warm.waitForSelector("[data-testid=compare-row]");
    await warm.close();
    const runs: { loadingMs: number; rowMs: number; marksMs: number; longestMs: number }[] = [];
    for (let round = 0; round < 3; round++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.addInitScript(() => {
        const holder = window as unknown as {
          __bench: { tasks: number[]; loading?: number; row?: number; marks?: number };
        };
        holder.__bench = { tasks: [] };
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) holder.__bench.tasks.push(entry.duration);
        }).observe({ type: "longtask", buffered: true });
        const watch = new MutationObserver(() => {
          if (
            holder.__bench.loading === undefined &&
            document.querySelector("[data-testid=compare-loading]")
          )
            requestAnimationFrame(() => {
              holder.__bench.loading ??= performance.now();
            });
          if (
            holder.__bench.row === undefined &&
            document.querySelector("[data-testid=compare-row]")
          )
            requestAnimationFrame(() => {
              holder.__bench.row ??= performance.now();
            });
          if (holder.__bench.marks === undefined && document.querySelector("[data-diff-mark]"))
            requestAnimationFrame(() => {
              holder.__bench.marks ??= performance.now();
            });
        });
        document.addEventListener("DOMContentLoaded", () =>
          watch.observe(document.body, { childList: true, subtree: true }),
        );
      });
      await page.goto(url);
      await page.waitForFunction(() => {
        const bench = (window as unknown as { __bench: { row?: number; marks?: number } }).__bench;
        return bench.row !== undefined && bench.marks !== undefined;
      });
      await page.waitForTimeout(300);
      const figures = await page.evaluate(() => {
        const bench = (
          window as unknown as {
            __bench: { tasks: number[]; loading?: number; row: number; marks: number };
          }
        ).__bench;
        return {
          loadingMs: bench.loading ?? Number.NaN,
          rowMs: bench.row,
          marksMs: bench.marks,
          longestMs: Math.max(0, ...bench.tasks),
        };
      });
      runs.push(figures);
      await page.close();
    }
    const events = (list: TranscriptRecord[]) =>
      list.filter((record) => record.kind === "event").length;
    console.log(
      `Compare bench: two transcripts of ${events(a)} / ${events(b)} events (${a.length} / ${b.length} records), ${node.rows} aligned rows; Chromium 1440×900, median of 3`,
    );
    console.log(
      table(
        ["measure", "value", "goal"],
        [
          [
            "page up, loading shown (from navigation start)",
            `${median(runs.map((run) => run.loadingMs)).toFixed(0)} ms`,
            "",
          ],
          [
            "first row painted (from navigation start)",
            `${median(runs.map((run) => run.rowMs)).toFixed(0)} ms`,
            "< 1000 ms",
          ],
          [
            "  of which after the page was up (load pages, align, draw)",
            `${median(runs.map((run) => run.rowMs - run.loadingMs)).toFixed(0)} ms`,
            "",
          ],
          [
            "first character marks painted",
            `${median(runs.map((run) => run.marksMs)).toFixed(0)} ms`,
            "",
          ],
          [
            "longest main-thread task while loading",
            `${median(runs.map((run) => run.longestMs)).toFixed(0)} ms`,
            "",
          ],
          ["align both (Node, median of 5)", `${node.alignMs.toFixed(1)} ms`, ""],
          [
            `diff of the largest turn pair, ${node.largestChars} chars (${node.mode})`,
            `${node.diffMs.toFixed(1)} ms`,
            "bounded",
          ],
        ],
      ),
    );
  } finally {
    await browser.close();
    try {
      if (server.pid !== undefined) process.kill(-server.pid, "SIGTERM");
    } catch {}
  }
}

async function waitForServer(url: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`The server at ${url} did not start.`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
