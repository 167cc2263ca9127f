import { expect, type Page, test } from "@playwright/test";

/**
 * Runs outlive their page (spec §10): a reload in the middle of a streaming run picks it up
 * where it was — the answer arrives, nothing is interrupted, no piece is missing or doubled —
 * and another tab sees the run in its sidebar and can watch it.
 */

const timeline = (page: Page) => page.getByTestId("timeline");
const cards = (page: Page) => timeline(page).locator("[data-event-id]");
const TRANSCRIPT_URL = /\/t\/[A-Za-z0-9_-]+$/;

/** Each top-level card: its type and its text, in order. */
const shown = (page: Page) =>
  cards(page).evaluateAll((elements) =>
    elements
      .filter((element) => element.parentElement?.closest("[data-event-id]") === null)
      .map((element) => `${element.getAttribute("data-event-type")}: ${element.textContent}`),
  );

async function setPace(page: Page, ms: number) {
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByLabel("Demo pace (ms)").fill(String(ms));
  await page
    .getByRole("dialog", { name: "Run settings" })
    .getByRole("button", { name: "Close" })
    .click();
}

test("a reload mid-stream continues the run: the answer arrives, no interrupt, nothing doubled", async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await page.goto("/");
  // Slow (about 30 s) so the reload and the second tab happen mid-run, even on a busy machine.
  await setPace(page, 300);
  await page.getByLabel("Message").fill("demo: parallel batch");
  await page.getByLabel("Message").press("Enter");
  await expect(page).toHaveURL(TRANSCRIPT_URL);
  const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";
  const item = page.locator(`[data-transcript-id="${id}"]`);
  // The new conversation is in the list at once, marked as running.
  await expect(item.getByTestId("running-indicator")).toBeVisible();
  await expect(timeline(page).locator("[data-event-type=think]").first()).toBeVisible();

  await page.reload();
  // Attached again: the run is still going and can be stopped from here.
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await expect(timeline(page).locator("[data-event-type=user]")).toHaveCount(1);

  // Another tab marks it as running too, and can open it and watch.
  const other = await context.newPage();
  await other.goto("/");
  await expect(
    other.locator(`[data-transcript-id="${id}"]`).getByTestId("running-indicator"),
  ).toBeVisible();
  await other.locator(`[data-transcript-id="${id}"] button`).first().click();
  await expect(other).toHaveURL(new RegExp(`/t/${id}$`));

  await expect(timeline(page).locator("[data-event-type=respond]")).toBeVisible({
    timeout: 90_000,
  });
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
  await expect(other.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
  await expect(timeline(page).locator("[data-event-type=interrupt]")).toHaveCount(0);
  await expect(item.getByTestId("running-indicator")).toHaveCount(0);
  const live = await shown(page);
  expect(live.some((card) => card.startsWith("respond"))).toBe(true);
  expect(await shown(other)).toEqual(live);

  // The stored transcript, loaded fresh, shows exactly the same cards: nothing missing or doubled.
  await page.reload();
  await expect(page.getByTestId("transcript-header")).toBeVisible();
  await expect.poll(() => shown(page)).toEqual(live);
});
