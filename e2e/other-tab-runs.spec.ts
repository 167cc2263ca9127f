import { expect, type Page, test } from "@playwright/test";

/**
 * Runs made on the open conversation from somewhere else (another tab, a script): followed
 * whether or not the sidebar is shown, and a run too quick for the poll to see is read when
 * the user comes back to the tab. Both found from outside: at 1024×768 the sidebar is a shut
 * drawer, and the tab never followed another tab's run.
 */
const timeline = (page: Page) => page.getByTestId("timeline");

/** A one-run conversation made through the API; its id. */
async function conversation(page: Page): Promise<string> {
  const response = await page.request.post("/api/runs", {
    data: { message: "list the files", dialect: "xml", model: { provider: "demo" } },
  });
  expect(response.status()).toBe(200);
  await response.text();
  return response.headers()["x-transcript-id"] ?? "";
}

/** Continues it from outside the page: a run of `message` at `paceMs` a chunk. */
function runElsewhere(page: Page, id: string, message: string, paceMs: number) {
  return page.request.post("/api/runs", {
    data: {
      message,
      dialect: "xml",
      transcriptId: id,
      model: { provider: "demo", settings: { paceMs } },
    },
  });
}

test("at 1024×768, sidebar shut, a run started elsewhere on the open conversation is followed", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const id = await conversation(page);
  await page.goto(`/t/${id}`);
  await expect(timeline(page).getByText("list the files").first()).toBeVisible();
  await expect(page.getByRole("complementary", { name: "Transcripts" })).toHaveCount(0);
  const run = runElsewhere(page, id, "explain how it reads a model", 30);
  // The page shows the other run's message and streams its answer: it follows the run.
  await expect(timeline(page).getByText("explain how it reads a model")).toBeVisible();
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await (await run).text();
});

test("a run made elsewhere between two polls shows once the user comes back to the tab", async ({
  page,
}) => {
  // The poll never sees a run (as when one falls between two polls): only coming back shows it.
  await page.route("**/api/runs?active=1", (route) => route.fulfill({ json: { runs: [] } }));
  const id = await conversation(page);
  await page.goto(`/t/${id}`);
  await expect(timeline(page).getByText("list the files").first()).toBeVisible();
  const run = await runElsewhere(page, id, "calculate 12 * 7 + 3", 0);
  await run.text();
  // The user switches back to this tab (or clicks into its window).
  await page.evaluate(() => window.dispatchEvent(new Event("focus")));
  await expect(timeline(page).getByText("calculate 12 * 7 + 3")).toBeVisible();
});
