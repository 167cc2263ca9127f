import { expect, test } from "@playwright/test";
import { createParser, type TranscriptRecord } from "../lib/protocol";
import { importRecords } from "./import-records";
import { hydrated } from "./page-ready";

/**
 * A button that goes (or is disabled) when used by keyboard hands the focus on to the place a
 * user goes next, not to the page's start: Exit replay to Play, Stop to the message box, Load
 * all (its bar gone) to the first card in view. Load older keeps it while its page loads.
 */

const idle = (page: import("@playwright/test").Page) =>
  expect(page.getByRole("button", { name: "Send" })).toBeVisible();

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
});

test("Exit replay gives the focus to Play", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.getByLabel("Message").fill("list the files");
  await page.getByLabel("Message").press("Enter");
  await idle(page);
  const bar = page.getByTestId("replay-bar");
  await bar.getByRole("button", { name: "Step forward" }).click();
  const exit = bar.getByRole("button", { name: "Exit replay" });
  await exit.focus();
  await page.keyboard.press("Enter");
  await expect(exit).toHaveCount(0);
  await expect(bar.getByRole("button", { name: "Play", exact: true })).toBeFocused();
});

test("Stop gives the focus to the message box", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  await page.getByLabel("Message").fill("explain the protocol in a long answer");
  await page.getByLabel("Message").press("Enter");
  const stop = page.getByRole("button", { name: "Stop" });
  await stop.focus();
  await page.keyboard.press("Enter");
  await idle(page);
  await expect(page.getByLabel("Message")).toBeFocused();
});

const TURN_TEXT = '<think>Look first.</think>\n<execute>[{"name": "list", "args": {}}]</execute>\n';

function longRecords(turns: number): TranscriptRecord[] {
  const out: TranscriptRecord[] = [];
  for (let turn = 0; turn < turns; turn++) {
    out.push({
      kind: "event",
      event: { type: "user", id: `u${turn}`, timestamp: 0, content: `message number ${turn}` },
    });
    const parser = createParser("xml", { turn, idPrefix: `t${turn}-` });
    for (let at = 0; at < TURN_TEXT.length; at += 8) {
      const text = TURN_TEXT.slice(at, at + 8);
      out.push({ kind: "chunk", turn, t: turn * 100 + at, text });
      for (const event of parser.feed(text)) out.push({ kind: "event", event });
    }
    for (const event of parser.end()) out.push({ kind: "event", event });
  }
  return out;
}

async function openLong(page: import("@playwright/test").Page) {
  const records = longRecords(400).map((record) => ({ ...record, runId: "r" }));
  const id = await importRecords(page, { id: "focus-long", title: "Long" }, records);
  await page.goto(`/t/${id}`);
  await hydrated(page);
  return page.getByTestId("timeline").locator("xpath=..").getByTestId("older-records");
}

test("Load older keeps the focus while its page loads", async ({ page }) => {
  const older = await openLong(page);
  const loadOlder = older.getByRole("button", { name: "Load older" });
  await loadOlder.focus();
  await page.keyboard.press("Enter");
  await expect(older).toContainText("Showing the last");
  await expect(loadOlder).toBeFocused();
});

test("Load all, its bar gone, hands the focus to a card in view", async ({ page }) => {
  const older = await openLong(page);
  const loadAll = older.getByRole("button", { name: "Load all" });
  await loadAll.focus();
  await page.keyboard.press("Enter");
  await expect(older).toHaveCount(0);
  await expect
    .poll(() =>
      page.evaluate(() => document.activeElement?.closest("[data-testid=timeline]") !== null),
    )
    .toBe(true);
  await expect(page.locator("[data-testid=timeline] [data-event-id]:focus")).toBeInViewport();
});
