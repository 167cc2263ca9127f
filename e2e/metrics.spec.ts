import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page, test } from "@playwright/test";

/**
 * The run summary header, its per-turn table and the waterfall on the demo model: the
 * header's figures are the sums of the per-turn figures, bars link to their cards and raw
 * spans by pointer and keyboard, prices can be set in Settings, and axe finds nothing serious.
 * Screenshots go to test-results/ so a person can look at them.
 */

const idle = (page: Page) => expect(page.getByRole("button", { name: "Send" })).toBeVisible();
const summary = (page: Page) => page.getByTestId("run-summary");
const timeline = (page: Page) => page.getByTestId("timeline");

async function run(page: Page, dialect: string, message: string) {
  await page.goto("/");
  await page.getByRole("group", { name: "Dialect" }).getByText(dialect, { exact: true }).click();
  await page.getByLabel("Message").fill(message);
  await page.getByLabel("Message").press("Enter");
  await idle(page);
}

async function stat(root: Locator, name: string): Promise<number> {
  return Number(await root.locator(`[data-stat="${name}"]`).getAttribute("data-value"));
}

async function column(table: Locator, name: string): Promise<number[]> {
  const cells = await table.locator(`tbody [data-col="${name}"]`).all();
  return Promise.all(cells.map(async (cell) => Number(await cell.getAttribute("data-value"))));
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

test("the summary header's figures are the sums of the per-turn figures", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await run(page, "xml", "list the files");
  const header = summary(page);
  await expect(header).toBeVisible();
  const metricCards = await timeline(page).locator("[data-event-type=metric]").count();
  expect(metricCards).toBeGreaterThanOrEqual(2);
  expect(await stat(header, "turns")).toBe(metricCards);

  await header.getByRole("button", { name: "Per turn" }).click();
  const table = page.getByTestId("per-turn");
  await expect(table.locator("tbody tr")).toHaveCount(metricCards);
  // Each column says what it holds: no two headers alike ("model" and "model" were).
  const headers = await table.locator("thead th").allTextContents();
  expect(new Set(headers).size).toBe(headers.length);
  expect(await stat(header, "calls")).toBe(sum(await column(table, "calls")));
  expect(await stat(header, "calls")).toBeGreaterThan(0);
  expect(await stat(header, "errors")).toBe(sum(await column(table, "errors")));
  expect(await stat(header, "tokensIn")).toBe(sum(await column(table, "tokensIn")));
  expect(await stat(header, "tokensOut")).toBe(sum(await column(table, "tokensOut")));
  expect(await stat(header, "duration")).toBeCloseTo(sum(await column(table, "wallMs")), 6);
  // …and says so with the column's name (a metric card's "duration" is only the model's stream).
  await expect(header.locator("span", { has: page.locator('[data-stat="duration"]') })).toHaveText(
    /^wall /,
  );
  await expect(table.locator("thead th", { hasText: /^wall$/ })).toHaveCount(1);
  // The demo model costs nothing, and its counts are estimates: the header says so.
  expect(await stat(header, "cost")).toBe(0);
  expect(sum(await column(table, "cost"))).toBe(0);
  await expect(header.locator("[data-token-source]")).toHaveAttribute(
    "data-token-source",
    "estimate",
  );
  await expect(header).toContainText("≈");
  await page.screenshot({ path: "test-results/metrics-per-turn-1440-dark.png" });
});

test("the summary updates live while a run streams", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByLabel("Demo pace (ms)").fill("80");
  await page
    .getByRole("dialog", { name: "Run settings" })
    .getByRole("button", { name: "Close" })
    .click();
  await page.getByLabel("Message").fill("list the files");
  await page.getByLabel("Message").press("Enter");
  const header = summary(page);
  // The first turn's metric is in while the second turn still streams: the header has it.
  await expect(timeline(page).locator("[data-event-type=metric]")).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Send" })).toHaveCount(0);
  await expect.poll(() => stat(header, "turns")).toBeGreaterThanOrEqual(1);
  expect(await stat(header, "calls")).toBe(1);
  await idle(page);
  await expect.poll(() => stat(header, "turns")).toBe(2);
});

test("a transcript opened from the list shows the same summary", async ({ page }) => {
  await run(page, "xml", "list the files");
  const header = summary(page);
  const live = [
    await stat(header, "turns"),
    await stat(header, "calls"),
    await stat(header, "tokensIn"),
  ];
  await expect(page).toHaveURL(/\/t\//);
  await page.reload();
  await expect(header).toBeVisible();
  expect([
    await stat(header, "turns"),
    await stat(header, "calls"),
    await stat(header, "tokensIn"),
  ]).toEqual(live);
});

test("the waterfall draws turns and calls; a bar lights its card and raw span", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await run(page, "action", "demo: dependencies");
  await summary(page).getByRole("button", { name: "Waterfall" }).click();
  const waterfall = page.getByTestId("waterfall");
  const turns = waterfall.locator("[data-waterfall-bar=turn]");
  const calls = waterfall.locator("[data-waterfall-bar=call]");
  await expect(turns).toHaveCount(await timeline(page).locator("[data-event-type=metric]").count());
  await expect(calls).toHaveCount(3);
  // `report` waits for `files` and `total`: two dependency lines.
  await expect(page.getByTestId("waterfall-links").locator("[data-dependency]")).toHaveCount(2);

  const bar = calls.first();
  const linkId = await bar.getAttribute("data-link-id");
  const card = timeline(page).locator(`[data-event-id="${linkId}"]`);
  await bar.hover();
  await expect(card).toHaveClass(/outline-info/);
  await expect(page.locator('[data-span-highlight="hover"]').first()).toBeVisible();
  await page.screenshot({ path: "test-results/metrics-waterfall-1440-dark.png" });

  // By keyboard: arrows move between bars, focus links, Enter selects the card.
  await turns.first().focus();
  await page.keyboard.press("ArrowDown");
  await expect(bar).toBeFocused();
  await expect(card).toHaveClass(/outline-info/);
  await page.keyboard.press("Enter");
  await expect(card).toHaveAttribute("data-selected", "true");
});

/**
 * A demo transcript whose second model turn ran two days after the first (a fork continued
 * later looks the same), and on a demo model id other than `scripted`: exported, edited,
 * imported back.
 */
async function daysApart(page: Page): Promise<string> {
  const made = await page.request.post("/api/runs", {
    data: { message: "list the files", dialect: "xml", model: { provider: "demo" } },
  });
  await made.body();
  const id = made.headers()["x-transcript-id"] ?? "";
  const exported = await page.request.get(`/api/transcripts/${id}/export?format=jsonl`);
  const later = 2 * 86_400_000;
  const lines = (await exported.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const line of lines) {
    if (line.format !== undefined) line.model = { provider: "demo", id: "fast" };
    if (line.kind === "request") line.model = "fast";
    const event = line.event as { turn?: number; timestamp?: number } | undefined;
    if (event?.turn !== undefined && event.turn >= 1 && event.timestamp !== undefined)
      event.timestamp += later;
  }
  const imported = await page.request.post("/api/transcripts/import", {
    data: lines.map((line) => JSON.stringify(line)).join("\n"),
    headers: { "content-type": "application/x-ndjson" },
  });
  expect(imported.status()).toBe(201);
  return ((await imported.json()) as { transcript: { id: string } }).transcript.id;
}

test("days between turns: the waterfall breaks its axis there; a demo model id costs 0", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await daysApart(page);
  await page.goto(`/t/${id}`);
  await expect(summary(page).locator('[data-stat="cost"]')).toHaveText("$0.00");
  await summary(page).getByRole("button", { name: "Waterfall" }).click();
  const waterfall = page.getByTestId("waterfall");
  await expect(waterfall.locator("[data-axis-break]")).toHaveCount(1);
  await expect(waterfall.locator("[data-axis-break-label]")).toContainText("2 d");
  // The bars fill most of the axis: the two days are cut out, not drawn as empty space.
  await expect(waterfall.locator("[data-waterfall-bar=turn]")).toHaveCount(2);
  const scale = (await waterfall.getByTestId("waterfall-scale").boundingBox())?.width ?? 0;
  const bars = await waterfall.locator("[data-waterfall-bar]").all();
  const widths = await Promise.all(bars.map(async (bar) => (await bar.boundingBox())?.width ?? 0));
  expect(widths.reduce((total, width) => total + width, 0)).toBeGreaterThan(scale * 0.5);
  const results = await new AxeBuilder({ page }).include('[aria-label="Run summary"]').analyze();
  expect(
    results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => `${violation.id}: ${violation.help}`),
  ).toEqual([]);
  await page.screenshot({ path: "test-results/metrics-waterfall-break-1440-dark.png" });
});

test("prices set in Settings cost the run, and a bad one names its field", async ({ page }) => {
  await run(page, "xml", "list the files");
  await expect(summary(page).locator('[data-stat="cost"]')).toHaveText("$0.00");
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Run settings" });
  await expect(dialog.getByTestId("current-price")).toContainText("demo/scripted: $0 in, $0 out");
  const prices = dialog.getByLabel("Prices (USD per million tokens)");
  await prices.fill('{"demo/scripted": {"input": -1, "output": 1}}');
  await expect(dialog.getByRole("alert")).toContainText('"demo/scripted".input must be 0 or more');
  await prices.fill('{"demo/scripted": {"input": 1000, "output": 2000}}');
  await expect(dialog.getByTestId("current-price")).toContainText(
    "$1000 in, $2000 out (your prices)",
  );
  await dialog.getByRole("button", { name: "Close" }).click();
  const header = summary(page);
  const expected =
    ((await stat(header, "tokensIn")) * 1000 + (await stat(header, "tokensOut")) * 2000) / 1e6;
  await expect.poll(() => stat(header, "cost")).toBeCloseTo(expected, 9);
  // Kept with the preferences.
  await page.reload();
  await expect.poll(() => stat(summary(page), "cost")).toBeCloseTo(expected, 9);
});

for (const colorScheme of ["dark", "light"] as const) {
  test(`axe and screenshots of the summary and waterfall, ${colorScheme}`, async ({ page }) => {
    test.slow();
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 1440, height: 900 });
    await run(page, "action", "demo: dependencies");
    await summary(page).getByRole("button", { name: "Waterfall" }).click();
    await expect(page.getByTestId("waterfall")).toBeVisible();
    const results = await new AxeBuilder({ page }).include('[aria-label="Run summary"]').analyze();
    const serious = results.violations.filter(
      (violation) => violation.impact === "serious" || violation.impact === "critical",
    );
    expect(serious.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
    for (const [width, height] of [
      [1440, 900],
      [1024, 768],
      [800, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await expect(summary(page)).toBeVisible();
      const box = await summary(page).boundingBox();
      expect(box?.width ?? 0).toBeLessThanOrEqual(width);
      await page.screenshot({ path: `test-results/metrics-${width}-${colorScheme}.png` });
    }
  });
}
