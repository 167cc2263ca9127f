/**
 * A long conversation in the browser (many runs, opened from its tail): how long Play takes to
 * show the replay's first records, and a turn switch in the Request tab at a few hundred
 * messages. Figures only. Standalone against a running server:
 *   npx tsx bench/ui-conversation.ts http://127.0.0.1:3412 <transcriptId> [switches]
 * `npm run bench:ui` runs it on a conversation it records first (`recordConversation`: the
 * issue's 120 runs of the demo model's long answer, 39,240 records, ~14 s on 2 cores).
 */
import type { Browser, CDPSession } from "@playwright/test";

export interface ConversationFigures {
  /** Play pressed → the conversation's first user message painted as a replay card. */
  playToFirstMs: number;
  /** Main-thread task time (CDP `TaskDuration`) over the same span. */
  playTaskMs: number;
  /** Records the page read from the server over the same span. */
  playRecordsRead: number;
  /** Events tab → Request tab (every message of the newest turn's request drawn anew). */
  requestOpenMs: number;
  requestOpenTaskMs: number;
  /** Median over the switches: the turn before (then after) picked → the new turn's messages painted. */
  turnSwitchMs: number;
  /** Median main-thread task time of one switch. */
  turnSwitchTaskMs: number;
  /** Messages in the request shown last. */
  messages: number;
  /** `<section>`s in the Request tab's DOM then (all of them when not virtualized). */
  messagesInDom: number;
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send("Performance.getMetrics")) as {
    metrics: { name: string; value: number }[];
  };
  return metrics.find((metric) => metric.name === "TaskDuration")?.value ?? 0;
}

/** Resolves after the frame that follows the next one is painted. */
const AFTER_PAINT =
  "new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))))";

export async function measureConversation(
  browser: Browser,
  base: string,
  transcriptId: string,
  switches = 9,
): Promise<ConversationFigures> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  try {
    let recordsRead = 0;
    let counting = false;
    page.on("response", async (response) => {
      if (!counting || !response.url().includes("/api/transcripts/")) return;
      const body = (await response.json().catch(() => null)) as { records?: unknown[] } | null;
      recordsRead += body?.records?.length ?? 0;
    });
    await page.goto(`${base}/t/${encodeURIComponent(transcriptId)}`);
    await page.getByTestId("older-records").first().waitFor();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Performance.enable");
    await page.getByRole("tab", { name: /^Events/ }).click();
    await page.waitForTimeout(500);
    const openedAt = await taskSeconds(cdp);
    const requestOpenMs = (await page.evaluate(`(async () => {
      const tab = [...document.querySelectorAll('[role="tab"]')].find((element) => element.textContent.startsWith("Request"));
      const start = performance.now();
      tab.click();
      while (document.querySelector('[data-request-view]') === null)
        await new Promise((resolve) => requestAnimationFrame(resolve));
      return (await ${AFTER_PAINT}) - start;
    })()`)) as number;
    const requestOpenTaskMs = ((await taskSeconds(cdp)) - openedAt) * 1000;
    await page.waitForTimeout(500);

    const switchMs: number[] = [];
    const switchTask: number[] = [];
    for (let step = 0; step < switches; step++) {
      const back = step % 2 === 0;
      const shown = await page.locator("[data-request-view]").getAttribute("data-request-view");
      const before = await taskSeconds(cdp);
      const ms = (await page.evaluate(`(async () => {
        // A stepper (more than 12 turns) or a button per turn: the turn before, then back.
        const stepper = document.querySelector('[aria-label="${back ? "Previous turn" : "Next turn"}"]');
        const buttons = [...document.querySelectorAll('fieldset[aria-label="Model turn"] button')];
        const at = buttons.findIndex((button) => button.getAttribute('aria-pressed') === 'true');
        const button = stepper ?? buttons[at + (${back} ? -1 : 1)];
        const start = performance.now();
        button.click();
        while (document.querySelector('[data-request-view]')?.getAttribute('data-request-view') === ${JSON.stringify(shown)})
          await new Promise((resolve) => requestAnimationFrame(resolve));
        return (await ${AFTER_PAINT}) - start;
      })()`)) as number;
      switchTask.push((await taskSeconds(cdp)) - before);
      switchMs.push(ms);
      await page.waitForTimeout(200);
    }
    const messages = Number(
      ((await page.locator("[data-request-view]").textContent()) ?? "").match(
        /(\d[\d,]*) messages/,
      )?.[1] ?? "0",
    );
    const messagesInDom = await page.locator("[data-request-message]").count();

    // Play from the tail: the replay starts at the conversation's first run.
    const first = await firstUserText(base, transcriptId);
    counting = true;
    const before = await taskSeconds(cdp);
    const playToFirstMs = (await page.evaluate(`(async () => {
      const button = document.querySelector('[data-testid="replay-bar"] button[aria-label="Play"]');
      const start = performance.now();
      button.click();
      const wanted = ${JSON.stringify(first)};
      const found = () => [...document.querySelectorAll('[data-testid="timeline"] [data-event-id]')]
        .some((card) => card.textContent.includes(wanted));
      while (!found()) await new Promise((resolve) => requestAnimationFrame(resolve));
      return (await ${AFTER_PAINT}) - start;
    })()`)) as number;
    const playTaskMs = ((await taskSeconds(cdp)) - before) * 1000;
    counting = false;
    await page.getByRole("button", { name: "Pause" }).click();
    return {
      playToFirstMs,
      playTaskMs,
      playRecordsRead: recordsRead,
      requestOpenMs,
      requestOpenTaskMs,
      turnSwitchMs: median(switchMs),
      turnSwitchTaskMs: median(switchTask) * 1000,
      messages,
      messagesInDom,
    };
  } finally {
    await page.close();
  }
}

/**
 * Records a conversation of `runs` runs through `POST /api/runs` (demo model, no pacing), each
 * continuing the last; answers its id. The long answer is 327 records a run.
 */
export async function recordConversation(base: string, runs: number): Promise<string> {
  let transcriptId: string | null = null;
  for (let run = 0; run < runs; run++) {
    const response: Response = await fetch(`${base}/api/runs`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({
        message: `explain the protocol in a long answer (run ${run})`,
        dialect: "xml",
        model: { provider: "demo", id: "scripted", settings: { paceMs: 0 } },
        ...(transcriptId === null ? {} : { transcriptId }),
      }),
    });
    if (!response.ok) throw new Error(`run ${run} refused: ${await response.text()}`);
    transcriptId = response.headers.get("x-transcript-id");
    await response.text();
  }
  if (transcriptId === null) throw new Error("no runs recorded");
  return transcriptId;
}

async function firstUserText(base: string, id: string): Promise<string> {
  const response = await fetch(`${base}/api/transcripts/${encodeURIComponent(id)}?limit=50`);
  const body = (await response.json()) as {
    records: { kind: string; event?: { type: string; content?: string } }[];
  };
  const user = body.records.find((record) => record.event?.type === "user");
  return user?.event?.content ?? "";
}

async function main(): Promise<void> {
  const [base, id, switches] = process.argv.slice(2);
  if (base === undefined || id === undefined)
    throw new Error("usage: npx tsx bench/ui-conversation.ts <base URL> <transcriptId> [switches]");
  const { chromium } = await import("@playwright/test");
  const { chromiumLaunchOptions } = await import("../e2e/chromium");
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const figures = await measureConversation(browser, base, id, Number(switches ?? 9));
    console.log(JSON.stringify(figures, null, 2));
  } finally {
    await browser.close();
  }
}

if (process.argv[1]?.endsWith("ui-conversation.ts"))
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
