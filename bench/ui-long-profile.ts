/**
 * Where the long transcript's page load spends its main thread: `npx tsx bench/ui-long-profile.ts`
 * against a production server already started on `WIRESCOPE_BENCH_PORT` (`npx next start -p …`).
 * Imports the 50,000-event transcript once, opens `/t/<id>` with a Chromium trace running
 * (`RUNS` times, default 2) and prints: when the page's requests started and ended, the
 * `performance.measure`s the page made, and every main-thread task over 40 ms with what it
 * held (script, style, layout, paint, GC). A tool for looking, not a figure for the README.
 */
import { chromium } from "@playwright/test";
import { chromiumLaunchOptions } from "../e2e/chromium";
import { benchRecords, benchTranscriptFile } from "./ui-records";

const PORT = Number(process.env.WIRESCOPE_BENCH_PORT ?? 3300);
const RUNS = Number(process.env.RUNS ?? 2);
const base = `http://127.0.0.1:${PORT}`;

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** CPU time of the event's thread (µs): what a busy machine does not stretch. */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; beginData?: Record<string, unknown> };
}

async function importLong(): Promise<{ id: string; lastId: string }> {
  const records = benchRecords(Number(process.env.WIRESCOPE_BENCH_LONG_EVENTS ?? 50_000));
  const body = benchTranscriptFile(records, "bench-long-profile");
  const response = await fetch(`${base}/api/transcripts/import`, {
    method: "POST",
    headers: { "content-type": "application/x-ndjson" },
    body,
  });
  if (response.status !== 201) throw new Error(`import refused: ${await response.text()}`);
  const { transcript } = (await response.json()) as { transcript: { id: string } };
  const last = [...records].reverse().find((record) => record.kind === "event");
  if (last?.kind !== "event") throw new Error("no events");
  return { id: transcript.id, lastId: last.event.id };
}

const ms = (micro: number) => (micro / 1000).toFixed(0).padStart(5);

/** Prints the trace's story; returns the main thread's tasks over 40 ms as [start, end] µs. */
function summarize(events: TraceEvent[], fromFirst = false): [number, number][] {
  const names = events.filter((e) => e.ph === "M" && e.name === "thread_name");
  const mains = names.filter((e) => e.args?.name === "CrRendererMain");
  const counts = mains.map((m) => ({
    m,
    n: events.filter((e) => e.pid === m.pid && e.tid === m.tid).length,
  }));
  counts.sort((a, b) => b.n - a.n);
  const main = counts[0]?.m;
  if (main === undefined) throw new Error("no renderer main thread in the trace");
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const first = Math.min(...onMain.filter((e) => e.ts > 0).map((e) => e.ts));
  const start = fromFirst ? first : (onMain.find((e) => e.name === "navigationStart")?.ts ?? first);

  console.log("requests (ms from navigation start: sent → finished):");
  const sent = new Map<string, { url: string; at: number }>();
  for (const e of events) {
    const data = e.args?.data as { requestId?: string; url?: string } | undefined;
    if (e.name === "ResourceSendRequest" && data?.requestId !== undefined)
      sent.set(data.requestId, { url: data.url ?? "", at: e.ts });
    if (e.name === "ResourceFinish" && data?.requestId !== undefined) {
      const request = sent.get(data.requestId);
      if (request === undefined) continue;
      const path = request.url.replace(base, "");
      console.log(`  ${ms(request.at - start)} → ${ms(e.ts - start)}  ${path.slice(0, 100)}`);
    }
  }

  console.log("page marks and measures:");
  for (const e of events) {
    if (!e.cat.includes("blink.user_timing") || e.ph === "M") continue;
    if (e.name === "navigationStart" || e.name.startsWith("fetch")) continue;
    if (e.ph === "b" || e.ph === "R" || e.ph === "I" || e.ph === "X")
      console.log(`  ${ms(e.ts - start)}  ${e.name}`);
  }

  console.log("main-thread tasks over 40 ms (start, duration, what):");
  const tasks = onMain.filter(
    (e) => e.ph === "X" && e.name === "RunTask" && (e.dur ?? 0) > 40_000 && e.ts >= start,
  );
  const kinds = new Set([
    "EvaluateScript",
    "v8.compile",
    "v8.compileModule",
    "FunctionCall",
    "TimerFire",
    "FireAnimationFrame",
    "EventDispatch",
    "ParseHTML",
    "UpdateLayoutTree",
    "Layout",
    "Paint",
    "PrePaint",
    "Layerize",
    "MinorGC",
    "MajorGC",
    "V8.GC_SCAVENGER",
    "RunMicrotasks",
    "v8.run",
    "XHRReadyStateChange",
    "HitTest",
    "UpdateLayer",
    "Commit",
  ]);
  const windows: [number, number][] = [];
  const all = onMain.filter((e) => e.ph === "X" && e.name === "RunTask" && e.ts >= start);
  const cpu = (list: TraceEvent[]) => list.reduce((sum, e) => sum + (e.tdur ?? 0), 0);
  const longestCpu = Math.max(0, ...all.map((e) => e.tdur ?? 0));
  console.log(
    `main-thread CPU: ${ms(cpu(all)).trim()} ms in tasks; longest task ${ms(longestCpu).trim()} ms CPU ` +
      `(${ms(Math.max(0, ...all.map((e) => e.dur ?? 0))).trim()} ms wall)`,
  );
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const parts = new Map<string, number>();
    for (const e of onMain) {
      if (e.ph !== "X" || e === task || e.ts < task.ts || e.ts >= end) continue;
      if (!kinds.has(e.name)) continue;
      const data = e.args?.data as { url?: string; functionName?: string } | undefined;
      const where =
        e.name === "FunctionCall" || e.name === "EvaluateScript"
          ? ` ${(data?.url ?? "").split("/").pop()?.slice(0, 30)}:${data?.functionName ?? ""}`
          : "";
      const key = `${e.name}${where}`;
      parts.set(key, (parts.get(key) ?? 0) + (e.dur ?? 0));
    }
    for (const e of onMain) {
      if (e.name !== "Layout" || e.ts < task.ts || e.ts >= end || (e.dur ?? 0) < 15_000) continue;
      const begin = (e.args as { beginData?: Record<string, unknown> } | undefined)?.beginData;
      const stack = (begin?.stackTrace as { functionName: string }[] | undefined) ?? [];
      console.log(
        `      layout ${ms(e.dur ?? 0).trim()} ms: ${begin?.dirtyObjects}/${begin?.totalObjects} objects, from ${stack.map((f) => f.functionName).join(" < ") || "the frame"}`,
      );
    }
    const top = [...parts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6);
    windows.push([task.ts, end]);
    console.log(
      `  ${ms(task.ts - start)} ${ms(task.dur ?? 0)} (cpu ${ms(task.tdur ?? 0).trim()})  ${top.map(([k, v]) => `${k} ${ms(v).trim()}`).join(" | ")}`,
    );
  }
  return windows;
}

interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

/** The functions that held the main thread longest (self time) inside `windows` (µs). */
function printHotFunctions(profile: CpuProfile, windows: [number, number][]): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<string, number>();
  let at = profile.startTime;
  const inside = profile.samples.map((_, index) => {
    at += profile.timeDeltas[index] ?? 0;
    return windows.some(([from, to]) => at >= from && at < to);
  });
  profile.samples.forEach((id, index) => {
    if (!inside[index]) return;
    const frame = byId.get(id)?.callFrame;
    if (frame === undefined) return;
    const file = frame.url.split("/").pop() ?? "";
    const key = `${frame.functionName || "(anonymous)"} ${file}:${frame.lineNumber}:${frame.columnNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[index + 1] ?? 0));
  });
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const name = (id: number) => {
    const frame = byId.get(id)?.callFrame;
    return frame === undefined
      ? "?"
      : `${frame.functionName || "(anon)"}@${frame.url.split("/").pop()}:${frame.lineNumber}:${frame.columnNumber}`;
  };
  const chains = new Map<string, Map<string, number>>();
  profile.samples.forEach((id, index) => {
    if (!inside[index]) return;
    const key = name(id);
    const path: string[] = [];
    for (let at = parent.get(id); at !== undefined && path.length < 4; at = parent.get(at))
      path.push(name(at));
    const map = chains.get(key) ?? new Map<string, number>();
    const chain = path.join(" < ");
    map.set(chain, (map.get(chain) ?? 0) + (profile.timeDeltas[index + 1] ?? 0));
    chains.set(key, map);
  });
  console.log("hottest functions (self ms), and their most common callers:");
  for (const [key, micro] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${ms(micro)}  ${key}`);
  console.log("the same, each with its most common chain of callers:");
  const top = [...chains.entries()]
    .map(([key, map]) => [key, [...map.entries()].sort((a, b) => b[1] - a[1])[0]] as const)
    .sort((a, b) => (b[1]?.[1] ?? 0) - (a[1]?.[1] ?? 0))
    .slice(0, 12);
  for (const [key, chain] of top)
    console.log(`  ${ms(chain?.[1] ?? 0)}  ${key} < ${chain?.[0] ?? ""}`);
}

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "blink.user_timing",
  "v8.execute",
  "v8",
  "toplevel",
  "loading",
  "blink.resource",
  "netlog",
  "__metadata",
];

async function main(): Promise<void> {
  const { id, lastId } = await importLong();
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    for (let run = 0; run < RUNS; run++) {
      const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Profiler.enable");
      await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
      await cdp.send("Profiler.start");
      await browser.startTracing(page, { categories: CATEGORIES });
      await page.goto(`${base}/t/${encodeURIComponent(id)}`);
      const lastCardMs = await page.evaluate(async (eventId) => {
        const selector = `[data-testid="timeline"] [data-event-id="${CSS.escape(eventId)}"]`;
        while (document.querySelector(selector) === null)
          await new Promise((resolve) => requestAnimationFrame(resolve));
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        return performance.now();
      }, lastId);
      await page.waitForTimeout(300);
      const elements = await page.evaluate(() => ({
        all: document.querySelectorAll("*").length,
        timeline: document.querySelectorAll('[data-testid="timeline"] *').length,
        raw: document.querySelectorAll('[data-testid="raw-view"] *').length,
      }));
      console.log(`elements: ${JSON.stringify(elements)}`);

      const { profile } = (await cdp.send("Profiler.stop")) as { profile: CpuProfile };
      const buffer = await browser.stopTracing();
      const trace = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
      console.log(`\nrun ${run + 1}: last card painted at ${lastCardMs.toFixed(0)} ms`);
      printHotFunctions(profile, summarize(trace.traceEvents));
      // The bench's scroll: Raw open beside, the timeline wheeled up 40 × 600 px.
      await page.getByRole("tab", { name: /^Events/ }).click();
      await page.waitForTimeout(500);
      await page.getByRole("tab", { name: /^Raw/ }).click();
      await page.waitForTimeout(500);
      const box = await page.getByTestId("timeline").boundingBox();
      if (box !== null) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await cdp.send("Profiler.start");
      await browser.startTracing(page, { categories: CATEGORIES });
      for (let step = 0; step < 40; step++) {
        await page.mouse.wheel(0, -600);
        await page.waitForTimeout(16);
      }
      await page.waitForTimeout(300);
      const scrollProfile = (await cdp.send("Profiler.stop")) as { profile: CpuProfile };
      const scrolled = JSON.parse((await browser.stopTracing()).toString()) as {
        traceEvents: TraceEvent[];
      };
      console.log("\nwheel-scrolling the timeline up (ms from the trace's start):");
      printHotFunctions(scrollProfile.profile, summarize(scrolled.traceEvents, true));
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
