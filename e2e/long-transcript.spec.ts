import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { createParser, type TranscriptRecord } from "../lib/protocol";
import { importRecords } from "./import-records";

/**
 * A transcript longer than the page's first read: it opens from its tail (whole turns only),
 * says how much it shows, loads older records as the timeline scrolls up (keeping the cards in
 * view where they were), loads everything on request, and replay starts from its first record.
 */
const TURN_TEXT =
  '<think>Look at the files first.</think>\n<execute>[{"name": "list", "args": {}}]</execute>\n';
const TURNS = 700;

function records(): TranscriptRecord[] {
  const out: TranscriptRecord[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
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

async function importLong(page: Page): Promise<{ id: string; count: number }> {
  const all = records().map((record) => ({ ...record, runId: "r" }));
  const id = await importRecords(page, { id: "long", title: "A long transcript" }, all);
  return { id, count: all.length };
}

/** What the page's log holds: the first loaded turn, every turn's raw text. */
function loaded(page: Page): Promise<{ firstTurn: number; raws: string[]; hasFirst: boolean }> {
  return page.evaluate(() => {
    const store = (
      window as unknown as {
        __wirescope: {
          getState(): {
            log: { turns: Map<number, { raw: string }>; get(id: string): unknown };
          };
        };
      }
    ).__wirescope;
    const { log } = store.getState();
    const turns = [...log.turns.entries()];
    return {
      firstTurn: turns[0]?.[0] ?? -1,
      raws: turns.map(([, turn]) => turn.raw),
      hasFirst: log.get("u0") !== undefined,
    };
  });
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
});

test("a long transcript opens from its tail, in whole turns, and says how much it shows", async ({
  page,
}) => {
  const { id, count } = await importLong(page);
  await page.goto(`/t/${id}`);
  const bar = page.getByTestId("older-records").first();
  await expect(bar).toContainText(`of ${count.toLocaleString("en-US")} records`);
  await expect(page.getByTestId("timeline").getByText(`message number ${TURNS - 1}`)).toBeVisible();
  const state = await loaded(page);
  expect(state.hasFirst).toBe(false);
  expect(state.firstTurn).toBeGreaterThan(0);
  // The run summary says its figures cover only the loaded part.
  await expect(page.getByTestId("run-summary-partial")).toBeVisible();
  // Every turn shown is whole: its raw text is the turn's text, not a cut piece of it.
  for (const raw of state.raws) expect(raw).toBe(TURN_TEXT);

  // Scrolling the timeline up loads older records; the card at the top stays in view.
  const timeline = page.getByTestId("timeline");
  const firstCard = `message number ${state.firstTurn}`;
  await timeline.evaluate((element) => {
    element.scrollTop = 0;
  });
  await expect.poll(async () => (await loaded(page)).firstTurn).toBeLessThan(state.firstTurn);
  await expect(timeline.getByText(firstCard)).toBeInViewport();
  for (const raw of (await loaded(page)).raws) expect(raw).toBe(TURN_TEXT);

  // Load all: the whole transcript, and the bar goes away.
  await page.getByRole("button", { name: "Load all" }).first().click();
  await expect(page.getByTestId("older-records")).toHaveCount(0);
  expect((await loaded(page)).hasFirst).toBe(true);
  await expect(page.getByTestId("run-summary-partial")).toHaveCount(0);
  await page.screenshot({ path: "test-results/long-transcript-loaded.png" });
});

test("replay of a transcript opened from its tail starts at its first record", async ({ page }) => {
  const { id } = await importLong(page);
  await page.goto(`/t/${id}`);
  await expect(page.getByTestId("older-records").first()).toBeVisible();
  await page.getByRole("button", { name: "Step forward" }).click();
  // The replay shows its own records: the loaded tail's bar goes while it does.
  await expect(page.getByTestId("older-records")).toHaveCount(0);
  // The replay starts from the first record of the whole transcript: the first user message.
  await expect(page.getByRole("button", { name: "Exit replay" })).toBeVisible();
  await expect(page.getByTestId("timeline").getByText("message number 0")).toBeVisible();
  await expect(page.getByTestId("timeline").getByText(`message number ${TURNS - 1}`)).toHaveCount(
    0,
  );
  await page.getByRole("button", { name: "Exit replay" }).click();
  await expect(page.getByTestId("older-records").first()).toBeVisible();
});

test("Raw draws only the lines near the screen and brings a far span into view", async ({
  page,
}) => {
  const { id } = await importLong(page);
  await page.goto(`/t/${id}`);
  await page.getByRole("button", { name: "Load all" }).first().click();
  await expect(page.getByTestId("older-records")).toHaveCount(0);
  const raw = page.getByTestId("raw-view");
  await expect(raw.locator("[data-raw-turn]")).toHaveCount(TURNS);
  // 700 turns of two lines each: only those near the screen are in the DOM.
  await expect(raw.locator("[data-line]").first()).toBeVisible();
  expect(await raw.locator("[data-line]").count()).toBeLessThan(300);

  // A call far up, picked elsewhere (as the timeline or Events tab does): its span is drawn.
  // The pointer rests off the cards, so no hovered span is drawn instead of the selected one.
  await page.mouse.move(5, 880);
  await page.evaluate(() => {
    const store = (
      window as unknown as { __wirescope: { getState(): { select(id: string): void } } }
    ).__wirescope;
    store.getState().select("t5-2");
  });
  const span = raw.locator("[data-span-highlight='selected']");
  await expect(span.first()).toBeInViewport();
  await expect(raw.locator("[data-raw-turn='5'] [data-line='2']")).toBeInViewport();
});

for (const colorScheme of ["dark", "light"] as const)
  test(`the "showing the last" bars pass axe and work by keyboard, ${colorScheme} theme`, async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme });
    const { id } = await importLong(page);
    await page.goto(`/t/${id}`);
    const bars = page.getByTestId("older-records");
    await expect(bars).toHaveCount(2);
    const results = await new AxeBuilder({ page })
      .include('[data-testid="older-records"]')
      .analyze();
    const serious = results.violations.filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(serious.map((violation) => violation.id)).toEqual([]);
    await page.screenshot({ path: `test-results/long-transcript-partial-${colorScheme}.png` });
    // Keyboard: the timeline's "Load older" is a button like any other.
    const before = (await loaded(page)).firstTurn;
    await bars.first().getByRole("button", { name: "Load older" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(async () => (await loaded(page)).firstTurn).toBeLessThan(before);
  });

test("K on the first card shown reads the page before it and steps onto it", async ({ page }) => {
  const { id } = await importLong(page);
  await page.goto(`/t/${id}`);
  await expect(page.getByTestId("older-records").first()).toBeVisible();
  const before = (await loaded(page)).firstTurn;
  // The first card shown (the user message of the first whole turn) selected, then K at once,
  // before the timeline could scroll up and load older records by itself.
  await page.evaluate((first) => {
    const store = (
      window as unknown as { __wirescope: { getState(): { select(id: string): void } } }
    ).__wirescope;
    store.getState().select(first);
    document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "k", bubbles: true }));
  }, `u${before}`);
  await expect.poll(async () => (await loaded(page)).firstTurn).toBeLessThan(before);
  // The previous card, the execute of the turn before, is selected.
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          (
            window as unknown as { __wirescope: { getState(): { selectedId: string | null } } }
          ).__wirescope.getState().selectedId,
      ),
    )
    .toBe(`t${before - 1}-3`);
});

test("at 1024×768 the debug header keeps Copy turn whole, and Raw does not misnumber user messages of a loaded part", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const { id } = await importLong(page);
  await page.goto(`/t/${id}`);
  await expect(page.getByTestId("older-records").first()).toBeVisible();
  const panel = page.getByTestId("debug-panel");
  const copy = panel.getByRole("button", { name: `Copy turn ${TURNS - 1} raw text` });
  await expect(copy).toBeVisible();
  const panelBox = await panel.boundingBox();
  const copyBox = await copy.boundingBox();
  expect(copyBox && panelBox && copyBox.x + copyBox.width).toBeLessThanOrEqual(
    (panelBox?.x ?? 0) + (panelBox?.width ?? 0),
  );
  // Only the newest records are loaded: the boundary cannot know the message's number.
  const boundary = page
    .getByTestId("raw-view")
    .locator(`[data-raw-user-boundary]`)
    .filter({ hasText: `message number ${TURNS - 1}` });
  await expect(boundary).toHaveText(`user message message number ${TURNS - 1}`);
});

test("Raw scrolled to its top reads older records and stays where it was, not at the newest turn", async ({
  page,
}) => {
  const { id } = await importLong(page);
  await page.goto(`/t/${id}`);
  await expect(page.getByTestId("older-records").first()).toBeVisible();
  const raw = page.getByTestId("raw-view");
  await expect(raw.locator(`[data-raw-turn="${TURNS - 1}"]`)).toBeInViewport();
  const before = (await loaded(page)).firstTurn;
  await raw.evaluate((element) => {
    element.scrollTop = 0;
  });
  await expect.poll(async () => (await loaded(page)).firstTurn).toBeLessThan(before);
  // The turn that was at the top is still on screen; the newest is far below.
  await expect(raw.locator(`[data-raw-turn="${before}"]`)).toBeInViewport();
  await expect(raw.locator(`[data-raw-turn="${TURNS - 1}"]`)).not.toBeInViewport();
});
