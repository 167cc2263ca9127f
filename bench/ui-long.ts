/**
 * The long-transcript half of `npm run bench:ui`: a 50,000-event transcript imported through
 * the API, then opened with the debug panel open (Raw, the default tab). Figures only.
 */
import type { Browser } from "@playwright/test";
import type { TranscriptRecord } from "../lib/protocol";
import { benchTranscriptFile } from "./ui-records";

export interface LongFigures {
  events: number;
  records: number;
  importMs: number;
  /** From navigation start to the newest card painted. */
  lastCardMs: number;
  longestTaskMs: number;
  longTasks: number;
  /** Events tab → Raw tab, to the frame after its first lines are drawn. */
  rawOpenMs: number;
  /** The longest frame while wheel-scrolling the timeline up. */
  scrollFrameMs: number;
  heapMb: number;
}

/**
 * Imports the transcript once, then opens it `opens` times (`WIRESCOPE_BENCH_LONG_OPENS`, default
 * 1) in a fresh page each: each figure is the median of the opens, so one noisy open on a
 * busy machine does not make the figure.
 */
export async function measureLongTranscript(
  browser: Browser,
  base: string,
  records: readonly TranscriptRecord[],
  opens = 1,
): Promise<LongFigures> {
  const body = benchTranscriptFile(records, "bench-long");
  const importStart = performance.now();
  const response = await fetch(`${base}/api/transcripts/import`, {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body,
  });
  const importMs = performance.now() - importStart;
  if (response.status !== 201) throw new Error(`import refused: ${await response.text()}`);
  const { transcript } = (await response.json()) as { transcript: { id: string } };
  const events = records.filter((record) => record.kind === "event").length;
  const lastId = [...records].reverse().find((record) => record.kind === "event");
  if (lastId?.kind !== "event") throw new Error("no events");
  const runs: Omit<LongFigures, "events" | "records" | "importMs">[] = [];
  for (let open = 0; open < opens; open++) {
    const run = await openLong(browser, base, transcript.id, lastId.event.id);
    runs.push(run);
    if (opens > 1)
      console.log(
        `open ${open + 1}: last card ${run.lastCardMs.toFixed(0)} ms, longest task ` +
          `${run.longestTaskMs.toFixed(0)} ms, Raw ${run.rawOpenMs.toFixed(0)} ms, ` +
          `longest frame ${run.scrollFrameMs.toFixed(0)} ms`,
      );
  }
  const median = (pick: (run: (typeof runs)[number]) => number) => {
    const sorted = runs.map(pick).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  return {
    events,
    records: records.length,
    importMs,
    lastCardMs: median((run) => run.lastCardMs),
    longestTaskMs: median((run) => run.longestTaskMs),
    longTasks: median((run) => run.longTasks),
    rawOpenMs: median((run) => run.rawOpenMs),
    scrollFrameMs: median((run) => run.scrollFrameMs),
    heapMb: median((run) => run.heapMb),
  };
}

/** One open of the imported transcript in a fresh page: every figure but the import's. */
async function openLong(
  browser: Browser,
  base: string,
  transcriptId: string,
  lastEventId: string,
): Promise<Omit<LongFigures, "events" | "records" | "importMs">> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.addInitScript(() => {
    const holder = window as unknown as { __longTasks: number[] };
    holder.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) holder.__longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: true });
  });
  await page.goto(`${base}/t/${encodeURIComponent(transcriptId)}`);
  const lastCardMs = await page.evaluate(async (id) => {
    const selector = `[data-testid="timeline"] [data-event-id="${CSS.escape(id)}"]`;
    while (document.querySelector(selector) === null)
      await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return performance.now();
  }, lastEventId);
  const tasks = await page.evaluate(
    () => (window as unknown as { __longTasks: number[] }).__longTasks,
  );

  await page.getByRole("tab", { name: /^Events/ }).click();
  await page.waitForTimeout(500);
  const rawOpenMs = await page.evaluate(async () => {
    const tab = [...document.querySelectorAll<HTMLElement>('[role="tab"]')].find((element) =>
      element.textContent?.startsWith("Raw"),
    );
    const start = performance.now();
    tab?.click();
    // Raw draws only the lines near the screen, a frame after it mounts: wait for them.
    while (document.querySelector('[data-testid="raw-view"] [data-line]') === null)
      await new Promise((resolve) => requestAnimationFrame(resolve));
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return performance.now() - start;
  });

  const timeline = page.getByTestId("timeline");
  const box = await timeline.boundingBox();
  if (box !== null) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  // A string, not a function: the bench runs through tsx, whose helpers do not exist in the page.
  await page.evaluate(`(() => {
    window.__frames = [];
    window.__framing = true;
    let last = performance.now();
    const tick = (now) => {
      window.__frames.push(now - last);
      last = now;
      if (window.__framing) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  })()`);
  for (let step = 0; step < 40; step++) {
    await page.mouse.wheel(0, -600);
    await page.waitForTimeout(16);
  }
  const frames = await page.evaluate(() => {
    const holder = window as unknown as { __frames: number[]; __framing: boolean };
    holder.__framing = false;
    return holder.__frames.slice(1);
  });

  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const heap = (await cdp.send("Runtime.getHeapUsage")) as { usedSize: number };
  await page.close();
  return {
    lastCardMs,
    longestTaskMs: Math.max(0, ...tasks),
    longTasks: tasks.length,
    rawOpenMs,
    scrollFrameMs: Math.max(0, ...frames),
    heapMb: heap.usedSize / 1024 / 1024,
  };
}
