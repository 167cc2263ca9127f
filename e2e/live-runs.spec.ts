import { expect, type Page, test } from "@playwright/test";

/**
 * Runs outlive their page (docs/live-runs.md): a reload in the middle of a streaming run picks it up
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

/** Starts a slow run (about 30 s) from the home page; its transcript id once it streams. */
async function startSlowRun(page: Page): Promise<string> {
  await page.goto("/");
  await setPace(page, 300);
  await page.getByLabel("Message").fill("demo: parallel batch");
  await page.getByLabel("Message").press("Enter");
  await expect(page).toHaveURL(TRANSCRIPT_URL);
  await expect(timeline(page).locator("[data-event-type=think]").first()).toBeVisible();
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
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

test("a run deleted from another tab: the page watching it moves on to a new conversation, saying so", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const id = await startSlowRun(page);
  // Another tab (here the API, as the other tab's sidebar calls it) deletes it mid-run.
  const deleted = await request.delete(`/api/transcripts/${id}`);
  expect(deleted.status()).toBe(200);
  await expect(page.getByTestId("notice")).toContainText(
    "This conversation was deleted, and its run was stopped.",
  );
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator(`[data-transcript-id="${id}"]`)).toHaveCount(0);
  // A message now starts a new conversation (it was refused: the deleted one was still open).
  await page.getByLabel("Message").fill("hello");
  await page.getByLabel("Message").press("Enter");
  await expect(page).toHaveURL(TRANSCRIPT_URL);
  expect(new URL(page.url()).pathname).not.toContain(id);
  await expect(page.getByRole("alert").filter({ hasText: "no transcript" })).toHaveCount(0);
});

test("deleting the open conversation while it runs: a new conversation, with no error in it", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const id = await startSlowRun(page);
  const item = page.locator(`[data-transcript-id="${id}"]`);
  await item.hover();
  await item.getByRole("button", { name: /^Delete/ }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(item).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  // The stopped run's end, arriving after, leaves the new conversation as it is.
  await expect
    .poll(async () => {
      const active = (await (await request.get("/api/runs?active=1")).json()) as {
        runs: { transcriptId: string }[];
      };
      return active.runs.some((run) => run.transcriptId === id);
    })
    .toBe(false);
  await expect(page.getByRole("alert").filter({ hasText: /deleted|failed/ })).toHaveCount(0);
  await expect(page.getByTestId("notice")).not.toContainText("its run was stopped");
  await expect(timeline(page).locator("[data-event-id]")).toHaveCount(0);
});
