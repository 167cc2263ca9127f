import { expect, type Locator, type Page, test } from "@playwright/test";
import type { TranscriptRecord } from "../lib/protocol";
import { streamedTurn } from "../lib/replay/fixtures.testing";
import { importRecords } from "./import-records";

/**
 * The run summary's panels as laid out on a screen: the waterfall's scale and legend stay in
 * view while its bars scroll under them (the panel is at most 40% of the window high), and the
 * per-turn table's outer columns line up with the summary row above it.
 */

const EPOCH = 1_700_000_000_000;

/** One run of `turns` model turns, a second each: more waterfall rows than the panel holds. */
function manyTurns(turns: number): (TranscriptRecord & { runId: string })[] {
  const runId = "many-turns";
  const out: (TranscriptRecord & { runId: string })[] = [
    { kind: "event", runId, event: { type: "user", id: "u", timestamp: EPOCH, content: "go on" } },
  ];
  for (let turn = 0; turn < turns; turn++) {
    const start = turn * 1000;
    out.push(
      ...streamedTurn({
        runId,
        turn,
        text: `<think>Turn ${turn}.</think>\n`,
        size: 8,
        t: start,
        epoch: EPOCH + start,
        metricAt: EPOCH + start + 400,
        durationMs: 400,
      }),
    );
  }
  return out;
}

/** Is `inner` wholly inside what `scroller` shows? */
async function shownIn(inner: Locator, scroller: Locator): Promise<boolean> {
  const [a, b] = [await inner.boundingBox(), await scroller.boundingBox()];
  if (a === null || b === null) return false;
  return a.y >= b.y - 0.5 && a.y + a.height <= b.y + b.height + 0.5;
}

test("the waterfall's scale and legend stay in view while its bars scroll", async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const id = await importRecords(page, { id: "many-turns", title: "Many turns" }, manyTurns(40));
  await page.goto(`/t/${id}`);
  await page.getByTestId("run-summary").getByRole("button", { name: "Waterfall" }).click();
  const waterfall = page.getByTestId("waterfall");
  await expect(waterfall.locator("[data-waterfall-bar=turn]")).toHaveCount(40);
  const panel = waterfall.locator("xpath=..");
  const legend = waterfall.locator("p", { hasText: "to first token" });
  const scale = page.getByTestId("waterfall-scale");
  // The bars are taller than the panel: it scrolls.
  expect(await panel.evaluate((element) => element.scrollHeight > element.clientHeight + 100)).toBe(
    true,
  );
  for (const to of ["top", "middle", "bottom"] as const) {
    await panel.evaluate((element, where) => {
      const end = element.scrollHeight - element.clientHeight;
      element.scrollTop = where === "top" ? 0 : where === "middle" ? end / 2 : end;
    }, to);
    expect(await shownIn(legend, panel), `legend at the ${to}`).toBe(true);
    expect(await shownIn(scale, panel), `scale at the ${to}`).toBe(true);
  }
  // A bar reached by the keyboard is scrolled clear of the legend and the scale.
  await waterfall.locator("[data-waterfall-bar=turn]").first().focus();
  for (let step = 0; step < 39; step++) await page.keyboard.press("ArrowDown");
  const last = waterfall.locator("[data-waterfall-bar=turn]").last();
  await expect(last).toBeFocused();
  const [bar, key] = [await last.boundingBox(), await legend.boundingBox()];
  expect(bar !== null && key !== null && bar.y + bar.height <= key.y).toBe(true);
  await page.screenshot({ path: "test-results/waterfall-scrolled-1024.png" });
});

/** Where the text of an element's content box starts and ends, in page pixels. */
async function contentEdges(locator: Locator): Promise<{ left: number; right: number }> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    return {
      left: box.left + Number.parseFloat(style.paddingLeft),
      right: box.right - Number.parseFloat(style.paddingRight),
    };
  });
}

async function runDemo(page: Page, message: string) {
  await page.goto("/");
  await page.getByLabel("Message").fill(message);
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
}

test("the per-turn table's outer columns line up with the summary row", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await runDemo(page, "list the files");
  const summary = page.getByTestId("run-summary");
  await summary.getByRole("button", { name: "Per turn" }).click();
  const table = page.getByTestId("per-turn");
  await expect(table.locator("tbody tr").first()).toBeVisible();
  const row = await contentEdges(summary);
  for (const cells of [
    table.locator("thead tr > *"),
    table.locator("tbody tr").first().locator("> *"),
  ]) {
    const first = await contentEdges(cells.first());
    const last = await contentEdges(cells.last());
    expect(Math.abs(first.left - row.left)).toBeLessThan(1);
    expect(Math.abs(last.right - row.right)).toBeLessThan(1);
  }
});

test("the per-turn table, wider than its column beside the debug panel, scrolls by keyboard", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await runDemo(page, "list the files");
  await expect(page.getByTestId("debug-region")).toBeVisible();
  const summary = page.getByTestId("run-summary");
  await summary.getByRole("button", { name: "Per turn" }).click();
  const table = page.getByTestId("per-turn");
  const panel = table.locator("xpath=..");
  const cost = table.locator("thead th").last();
  await expect(cost).toHaveText("cost");
  expect(await panel.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  const shownWhole = async () => {
    const [cell, view] = [await cost.boundingBox(), await panel.boundingBox()];
    return cell !== null && view !== null && cell.x + cell.width <= view.x + view.width + 1;
  };
  expect(await shownWhole()).toBe(false);
  // The panel is the next tab stop after the summary's toggles, and its keys scroll it.
  await summary.getByRole("button", { name: "Waterfall" }).focus();
  await page.keyboard.press("Tab");
  await expect(panel).toBeFocused();
  for (let step = 0; step < 10; step++) await page.keyboard.press("ArrowRight");
  await expect.poll(shownWhole).toBe(true);
});
