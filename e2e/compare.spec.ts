import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";

/**
 * The compare view: a fork with an edited tool result compared with its parent marks the
 * differing result; "Run again on…" runs the transcript on the demo model in another dialect
 * and opens the comparison; unknown ids get a clear error; no serious axe violation.
 */

interface Stored {
  records: { seq: number; kind: string; event?: { type: string; callId?: string } }[];
}

/** A transcript on the demo model, its run read to the end. */
async function conversation(request: APIRequestContext, message: string): Promise<string> {
  const response = await request.post("/api/runs", {
    data: { message, dialect: "xml", model: { provider: "demo", settings: { paceMs: 0 } } },
  });
  expect(response.ok()).toBe(true);
  await response.body();
  return response.headers()["x-transcript-id"] ?? "";
}

/** Forks at the first result with new content and runs the model's next turn. */
async function forkWithEditedResult(request: APIRequestContext, parent: string): Promise<string> {
  const stored = (await (await request.get(`/api/transcripts/${parent}`)).json()) as Stored;
  const result = stored.records.find((record) => record.event?.type === "result");
  expect(result).toBeDefined();
  const forked = await request.post(`/api/transcripts/${parent}/fork`, {
    data: {
      at: result?.seq,
      editResult: { callId: result?.event?.callId, content: "only-one-file.txt" },
    },
  });
  expect(forked.status()).toBe(201);
  const { continueWith } = (await forked.json()) as { continueWith: Record<string, unknown> };
  const run = await request.post("/api/runs", { data: continueWith });
  expect(run.ok()).toBe(true);
  await run.body();
  return String(continueWith.transcriptId);
}

const rows = (page: Page) => page.getByTestId("compare-row");

test("a fork with an edited result, compared with its parent, marks the differing result", async ({
  page,
}) => {
  const parent = await conversation(page.request, "list the files");
  const fork = await forkWithEditedResult(page.request, parent);
  await page.goto(`/t/${fork}`);
  const header = page.getByTestId("transcript-header");
  await header.getByRole("button", { name: "Compare" }).click();
  await page.getByRole("menuitem", { name: "Compare with parent" }).click();
  await expect(page).toHaveURL(`/compare?a=${parent}&b=${fork}`);
  await expect(rows(page).first()).toBeVisible();
  // The result row: both sides' result marked, the field named, the row marked as differing.
  const results = page.locator(
    "[data-testid=compare-event][data-event-type=result][data-differs=true]",
  );
  await expect(results).toHaveCount(2);
  await expect(results.first()).toHaveAttribute("data-fields", "content");
  await expect(results.nth(1)).toContainText("only-one-file.txt");
  await expect(rows(page).first()).toHaveAttribute("data-status", "changed");
  // The model answered the edited result differently: its text is marked, character by character.
  await expect(page.locator("[data-side=b] [data-diff-mark=b]").first()).toBeVisible();
  // Next difference by keyboard.
  await page.keyboard.press("n");
  await expect(page.getByTestId("difference-position")).toHaveText(/^difference 1 of \d+$/);
  await expect(page.locator("[data-row]:focus")).toHaveAttribute("data-status", "changed");
  await page.screenshot({ path: "test-results/compare-fork.png" });
});

test("run again on another dialect opens the comparison when it is done", async ({ page }) => {
  const source = await conversation(page.request, "list the files");
  await page.goto(`/t/${source}`);
  await page.getByTestId("transcript-header").getByRole("button", { name: "Compare" }).click();
  await page.getByRole("menuitem", { name: "Run again on…" }).click();
  const dialog = page.getByRole("dialog", { name: "Run again on…" });
  await dialog.getByLabel("Dialect").selectOption("delimiter");
  await dialog.getByRole("button", { name: "Run and compare" }).click();
  await expect(page).toHaveURL(new RegExp(`/compare\\?a=${source}&b=[A-Za-z0-9_-]+$`), {
    timeout: 20_000,
  });
  await expect(page.getByTestId("compare-title-b")).toContainText("again on");
  await expect(page.getByTestId("compare-title-b")).toContainText("delimiter");
  await expect(rows(page).first()).toBeVisible();
});

test("unknown ids get a clear error; a missing side gets a picker", async ({ page }) => {
  const known = await conversation(page.request, "list the files");
  await page.goto(`/compare?a=${known}&b=no-such-transcript`);
  await expect(page.getByTestId("compare-error")).toContainText(
    'no transcript "no-such-transcript"',
  );
  // The list's first page without the chosen one (an older transcript): named all the same.
  await page.route(
    (url) => url.pathname === "/api/transcripts",
    (route) => route.fulfill({ json: { transcripts: [], nextOffset: null } }),
  );
  await page.getByRole("link", { name: "Choose another transcript" }).click();
  await expect(page.getByTestId("pick-b")).toBeVisible();
  await expect(page.getByTestId("pick-a")).toContainText("change");
  await expect(page.getByTestId("pick-a")).toContainText("list the files");
  await expect(page.getByTestId("pick-a")).not.toContainText(known);
});

for (const colorScheme of ["dark", "light"] as const) {
  test(`axe: the compare view has no serious violations (${colorScheme})`, async ({ page }) => {
    test.setTimeout(60_000);
    await page.emulateMedia({ colorScheme });
    const parent = await conversation(page.request, "list the files");
    const fork = await forkWithEditedResult(page.request, parent);
    await page.goto(`/compare?a=${parent}&b=${fork}`);
    await expect(page.locator("[data-diff-mark]").first()).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map(
        (violation) =>
          `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
    expect(serious).toEqual([]);
  });
}

test("the Run again dialog takes the focus, keeps it, and Escape gives it back to Compare", async ({
  page,
}) => {
  const source = await conversation(page.request, "list the files");
  await page.goto(`/t/${source}`);
  const compare = page.getByTestId("transcript-header").getByRole("button", { name: "Compare" });
  await compare.click();
  await page.getByRole("menuitem", { name: "Run again on…" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Run again on…" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("radio", { name: "The first user message" })).toBeFocused();
  // Tab goes round the dialog's controls, never to the page behind it.
  for (let step = 0; step < 8; step++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(compare).toBeFocused();
});
