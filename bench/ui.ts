/**
 * `npm run bench:ui`: rendering figures in Chromium, printed, never asserted.
 * - the time to fold and paint a run of 5,000 events pushed at once;
 * - the longest main-thread task (PerformanceObserver "longtask") while records stream in at
 *   200 events per second for 10 s.
 * - a 50,000-event transcript opened with the debug panel open: last card painted, longest
 *   task, Raw tab opening, scroll frames and JS heap (`ui-long.ts`); with
 *   `WIRESCOPE_BENCH_LONG_OPENS=n` it is opened n times and each figure is their median.
 *   `bench/ui-long-profile.ts` traces the same load to show where its time goes.
 * - a conversation of 120 runs (39,240 records) opened from its tail: Play to the first
 *   replayed card, the Request tab opened and a turn switch at 238 messages
 *   (`ui-conversation.ts`; `WIRESCOPE_BENCH_CONVERSATION_RUNS=0` skips it).
 * It starts the production build (`npm run build` first when there is none) on port 3300.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../e2e/chromium";
import { table } from "./table";
import { measureConversation, recordConversation } from "./ui-conversation";
import { measureLongTranscript } from "./ui-long";
import { benchRecords as records } from "./ui-records";

/** `WIRESCOPE_BENCH_PORT` moves it, so several checkouts can measure side by side. */
const PORT = Number(process.env.WIRESCOPE_BENCH_PORT ?? 3300);
/** The long transcript: the 50,000 events (`WIRESCOPE_BENCH_LONG_EVENTS` to change). */
const LONG_EVENTS = Number(process.env.WIRESCOPE_BENCH_LONG_EVENTS ?? 50_000);
/** Opens of the long transcript; its figures are their medians (`WIRESCOPE_BENCH_LONG_OPENS`). */
const LONG_OPENS = Math.max(1, Number(process.env.WIRESCOPE_BENCH_LONG_OPENS ?? 1));
/** Runs of the long conversation (`WIRESCOPE_BENCH_CONVERSATION_RUNS`, 0 to skip it). */
const CONVERSATION_RUNS = Number(process.env.WIRESCOPE_BENCH_CONVERSATION_RUNS ?? 120);

async function main(): Promise<void> {
  if (!existsSync(".next/BUILD_ID")) spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  const server: ChildProcess = spawn(
    "npx",
    ["next", "start", "-H", "127.0.0.1", "-p", String(PORT)],
    {
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        WIRESCOPE_DATA_DIR: mkdtempSync(join(tmpdir(), "wirescope-ui-bench-")),
      },
      stdio: "ignore",
      detached: true,
    },
  );
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    await waitForServer(`http://127.0.0.1:${PORT}/api/config`);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`http://127.0.0.1:${PORT}/`);
    await page.waitForFunction(() => "__wirescope" in window);

    const burst = records(5000);
    const eventsInBurst = burst.filter((record) => record.kind === "event").length;
    const renderMs = await page.evaluate(async (all) => {
      const store = (
        window as unknown as {
          __wirescope: { getState(): { applyRecord(r: unknown): void; newConversation(): void } };
        }
      ).__wirescope;
      store.getState().newConversation();
      const start = performance.now();
      for (const record of all) store.getState().applyRecord(record);
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      return performance.now() - start;
    }, burst);

    // A fresh page, so tearing down the 5,000-event view is not counted as streaming work.
    await page.reload();
    await page.waitForFunction(() => "__wirescope" in window);
    const stream = records(2000);
    const longest = await page.evaluate(async (all) => {
      const store = (
        window as unknown as {
          __wirescope: { getState(): { applyRecord(r: unknown): void; newConversation(): void } };
        }
      ).__wirescope;
      store.getState().newConversation();
      const tasks: number[] = [];
      const at: number[] = [];
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          // Tasks before the stream (Playwright handing the records to the page) do not count.
          if (entry.startTime < started) continue;
          tasks.push(entry.duration);
          at.push(entry.startTime - started);
        }
      });
      observer.observe({ type: "longtask", buffered: false });
      const events = all.filter((record: { kind: string }) => record.kind === "event").length;
      const started = performance.now();
      let sent = 0;
      let index = 0;
      // 200 events a second, with the chunks between them, for 10 s.
      while (sent < Math.min(events, 2000) && performance.now() - started < 10_000) {
        const due = Math.floor(((performance.now() - started) / 1000) * 200);
        while (sent < due && index < all.length) {
          const record = all[index++];
          store.getState().applyRecord(record);
          if (record?.kind === "event") sent++;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      observer.disconnect();
      return {
        sent,
        seconds: (performance.now() - started) / 1000,
        longest: Math.max(0, ...tasks),
        count: tasks.length,
        at,
      };
    }, stream);

    const when = longest.at.map((value: number) => Math.round(value)).join(", ");
    if (when !== "") console.log(`long tasks began at (ms into the stream): ${when}`);
    console.log("Wirescope UI bench (production build, Chromium, 1440×900, debug panel open)");
    console.log(
      table(
        ["measure", "value", "goal"],
        [
          [
            `fold + paint a run of ${eventsInBurst} events at once`,
            `${renderMs.toFixed(0)} ms`,
            "< 1000 ms",
          ],
          [
            `longest main-thread task, ${longest.sent} events over ${longest.seconds.toFixed(1)} s`,
            longest.count === 0 ? "none > 50 ms" : `${longest.longest.toFixed(0)} ms`,
            "≤ 50 ms",
          ],
          ["long tasks (> 50 ms) during the stream", String(longest.count), "0"],
        ],
      ),
    );

    const long = await measureLongTranscript(
      browser,
      `http://127.0.0.1:${PORT}`,
      records(LONG_EVENTS),
      LONG_OPENS,
    );
    console.log(
      `\nA ${long.events}-event transcript (${long.records} records), imported in ` +
        `${long.importMs.toFixed(0)} ms, opened at /t/<id> with the debug panel open (Raw)` +
        (LONG_OPENS > 1 ? `, median of ${LONG_OPENS} opens` : ""),
    );
    console.log(
      table(
        ["measure", "value", "goal"],
        [
          [
            "last card painted (from navigation start)",
            `${long.lastCardMs.toFixed(0)} ms`,
            "< 1500 ms",
          ],
          [
            `longest task while loading (${long.longTasks} over 50 ms)`,
            `${long.longestTaskMs.toFixed(0)} ms`,
            "< 100 ms",
          ],
          [
            "Raw tab opens (Events → Raw, lines drawn)",
            `${long.rawOpenMs.toFixed(0)} ms`,
            "< 200 ms",
          ],
          [
            "longest frame, wheel-scrolling the timeline",
            `${long.scrollFrameMs.toFixed(0)} ms`,
            "< 50 ms",
          ],
          ["JS heap after GC", `${long.heapMb.toFixed(0)} MB`, "< 100 MB"],
        ],
      ),
    );

    if (CONVERSATION_RUNS > 0) {
      const base = `http://127.0.0.1:${PORT}`;
      const recordStart = performance.now();
      const conversation = await recordConversation(base, CONVERSATION_RUNS);
      const recordMs = performance.now() - recordStart;
      const talk = await measureConversation(browser, base, conversation);
      console.log(
        `\nA conversation of ${CONVERSATION_RUNS} runs (the demo's long answer), recorded in ` +
          `${(recordMs / 1000).toFixed(1)} s, opened at /t/<id> (its tail), the debug panel open`,
      );
      console.log(
        table(
          ["measure", "value", "goal"],
          [
            [
              `Play → first replayed card (${talk.playRecordsRead} records read by then)`,
              `${talk.playToFirstMs.toFixed(0)} ms, ${talk.playTaskMs.toFixed(0)} ms of tasks`,
              "< 300 ms",
            ],
            [
              `Request tab opened (${talk.messages} messages)`,
              `${talk.requestOpenMs.toFixed(0)} ms, ${talk.requestOpenTaskMs.toFixed(0)} ms of tasks`,
              "< 100 ms",
            ],
            [
              "turn switch in the Request tab (median of 9)",
              `${talk.turnSwitchMs.toFixed(0)} ms, ${talk.turnSwitchTaskMs.toFixed(0)} ms of tasks`,
              "< 50 ms",
            ],
          ],
        ),
      );
    }
  } finally {
    await browser.close();
    // The server may be gone already; the error that ended the bench is the one to report.
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
