import { expect, type Page, test } from "@playwright/test";

/**
 * Density and clarity on the demo model: the Events table (compact, keyboard, JSON on
 * expand, raw beside it), a malformed call said once and linked to its span, replay steps by
 * event (pieces with Shift), and the sidebar (one tab stop, arrow keys, why a search matched,
 * the open transcript in view). Screenshots at 1440×900 and 800×900 in both themes go to
 * test-results/density-*.png.
 */

// Each test runs the demo and then takes eight screenshots: more than the default 30 s on a
// loaded machine.
test.describe.configure({ timeout: 90_000 });

const timeline = (page: Page) => page.getByTestId("timeline");
const topCards = (page: Page) =>
  timeline(page)
    .locator("[data-event-id]")
    .evaluateAll((elements) =>
      elements
        .filter((element) => element.parentElement?.closest("[data-event-id]") === null)
        .map((element) => element.getAttribute("data-event-type")),
    );
const idle = (page: Page) => expect(page.getByRole("button", { name: "Send" })).toBeVisible();
const header = (page: Page) => page.getByTestId("transcript-header");

async function open(page: Page, dialect = "xml") {
  await page.goto("/");
  await page.waitForFunction(() => {
    const composer = document.querySelector("textarea");
    return composer !== null && Object.keys(composer).some((key) => key.startsWith("__react"));
  });
  await page.getByRole("group", { name: "Dialect" }).getByText(dialect, { exact: true }).click();
}

async function send(page: Page, message: string) {
  await page.getByLabel("Message").fill(message);
  await page.getByLabel("Message").press("Enter");
  await expect(timeline(page).locator("[data-event-type=respond]").last()).toBeVisible({
    timeout: 20_000,
  });
  await idle(page);
}

async function tab(page: Page, name: string) {
  await page.getByRole("tab", { name: new RegExp(`^${name}`) }).click();
}

async function shoot(page: Page, name: string) {
  for (const [width, height] of [
    [1440, 900],
    [800, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const theme of ["dark", "light"] as const) {
      const current = await page.locator("html").getAttribute("data-theme");
      if (current !== theme)
        await page.getByRole("button", { name: `Switch to the ${theme} theme` }).click();
      await page.screenshot({ path: `test-results/density-${name}-${width}-${theme}.png` });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Saved runs made through the API, fast (pace 0), so the sidebar has a list to move in. */
async function seedRuns(page: Page, messages: readonly string[]) {
  for (const message of messages) {
    const response = await page.request.post("/api/runs", {
      data: { message, dialect: "xml", model: { provider: "demo", settings: { paceMs: 0 } } },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(response.ok()).toBe(true);
    await response.body();
  }
}

test("Events: a compact table, driven by the keyboard, the JSON on expand, raw beside it", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await open(page);
  await send(page, "list the files and read one");
  await tab(page, "Events");
  const list = page.getByTestId("events-view");
  const call = list.locator("[data-event-row=call]").first();
  await expect(call).toContainText("list");
  // One line per event: a row is about one line of 11px text high.
  const box = await call.boundingBox();
  expect(box?.height ?? 100).toBeLessThan(32);
  await expect(call).not.toContainText('"args"');

  // One tab stop; arrows select (the timeline follows), Enter shows the JSON.
  await list.focus();
  await page.keyboard.press("ArrowDown");
  await expect(list.locator('[aria-selected="true"]')).toHaveAttribute("data-event-row", "user");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("ArrowDown");
  const selected = list.locator('[aria-selected="true"]');
  await expect(selected).toHaveAttribute("data-event-row", "call");
  const id = await selected.getAttribute("data-row-id");
  await expect(timeline(page).locator(`[data-event-id="${id}"]`)).toHaveAttribute(
    "data-selected",
    "true",
  );
  await page.keyboard.press("Enter");
  await expect(selected).toContainText('"args":{"path":"."}');

  await page.getByRole("button", { name: "Raw beside" }).click();
  const split = page.getByTestId("events-with-raw");
  await expect
    .poll(async () => (await split.locator("[data-span-highlight]").allTextContents()).join(""))
    .toContain('"name":"list"');
  await shoot(page, "events");
});

test("a malformed call is said once, and its failure links to the error's span", async ({
  page,
}) => {
  await open(page);
  await page.getByLabel("Message").fill("demo: invalid json");
  await page.getByLabel("Message").press("Enter");
  await idle(page);
  const error = timeline(page).locator("[data-event-type=error]").first();
  const folded = error.getByTestId("folded-failure");
  await expect(folded).toContainText("Malformed call, not run");
  // No card of its own for the failure.
  expect(await topCards(page)).not.toContain("result");
  const message = (await error.locator("p").first().textContent()) ?? "";
  expect(message.length).toBeGreaterThan(5);
  await expect(timeline(page).getByText(message, { exact: true })).toHaveCount(1);

  await tab(page, "Raw");
  await expect(page.locator("[data-span-highlight]")).toHaveCount(0);
  await folded.hover();
  await expect(page.locator("[data-span-highlight]").first()).toBeVisible();
  await shoot(page, "invalid-call");
});

test("replay steps by event, by streamed piece with Shift; the speed shows Instant", async ({
  page,
}) => {
  await open(page);
  await send(page, "list the files");
  await expect(header(page)).toBeVisible();
  const live = await topCards(page);
  const bar = page.getByTestId("replay-bar");
  await bar.getByTestId("replay-scrubber").press("Home");
  await expect.poll(() => topCards(page)).toEqual(["user"]);
  const forward = bar.getByRole("button", { name: "Step forward" });
  // Each plain step adds exactly one (merged) event, however many pieces it streamed in.
  const merged = () =>
    page.evaluate(
      () =>
        (
          window as unknown as {
            __wirescope: { getState(): { log: { events: unknown[] } } };
          }
        ).__wirescope.getState().log.events.length,
    );
  const total = (await page.request
    .get(`/api/transcripts/${new URL(page.url()).pathname.split("/").at(-1)}`)
    .then((response) => response.json())) as {
    records: { kind: string; event?: { id: string; parent?: string } }[];
  };
  const ids = new Set(
    total.records.flatMap((record) => (record.event === undefined ? [] : [record.event.id])),
  );
  for (let count = 2; count <= ids.size; count++) {
    await forward.click();
    await expect.poll(merged).toBe(count);
  }
  await expect.poll(() => topCards(page)).toEqual(live);
  const thinkText = () =>
    timeline(page)
      .locator("[data-event-type=think]")
      .first()
      .evaluate((element) => element.textContent ?? "");
  const fullThink = await thinkText();

  await bar.getByTestId("replay-scrubber").press("Home");
  await forward.click({ modifiers: ["Shift"] });
  await expect.poll(() => topCards(page)).toEqual(["user", "think"]);
  const firstPiece = await thinkText();
  expect(firstPiece.length).toBeLessThan(fullThink.length);
  await forward.click({ modifiers: ["Shift"] });
  await expect
    .poll(() => thinkText().then((text) => text.length))
    .toBeGreaterThan(firstPiece.length);
  expect(await topCards(page)).toEqual(["user", "think"]);

  const speed = bar.getByLabel("Replay speed");
  await speed.selectOption("instant");
  const fits = await speed.evaluate((select) => {
    const probe = document.createElement("span");
    probe.textContent = "Instant";
    probe.style.font = getComputedStyle(select).font;
    document.body.append(probe);
    const text = probe.getBoundingClientRect().width;
    probe.remove();
    const style = getComputedStyle(select);
    const inner = select.clientWidth - Number.parseFloat(style.paddingLeft);
    // The arrow takes about 16px at the end.
    return inner - 16 >= text;
  });
  expect(fits).toBe(true);
  await shoot(page, "replay");
});

test("sidebar: one tab stop with arrow keys, the open one in view, why a search matched", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 500 });
  await open(page);
  await seedRuns(page, [
    "read notes/todo.md",
    ...Array.from({ length: 12 }, (_, n) => `what is ${n}+1`),
  ]);
  await page.reload();
  const items = page.getByTestId("transcript-item");
  await expect.poll(() => items.count()).toBeGreaterThan(12);

  // The oldest seeded one, far down the list: opening it by URL brings it into view.
  const all = await items.evaluateAll((elements) =>
    elements.map((element) => element.getAttribute("data-transcript-id")),
  );
  const target = all[12] ?? "";
  await page.goto(`/t/${target}`);
  const item = page.locator(`[data-transcript-id="${target}"]`);
  await expect(item).toHaveAttribute("aria-current", "page");
  await expect(item).toBeInViewport();

  // Tab from the search box (past the source filter) lands on the open transcript; arrows
  // move, Enter opens.
  await page.getByLabel("Search transcripts").focus();
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Show transcripts from")).toBeFocused();
  await page.keyboard.press("Tab");
  await expect(item.locator("[data-open-button]")).toBeFocused();
  await page.keyboard.press("ArrowUp");
  const above = page.locator(`[data-transcript-id="${all[11]}"] [data-open-button]`);
  await expect(above).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/t/${all[11]}$`));

  // A search that matched what was said shows it, marked.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByLabel("Search transcripts").fill("average is wrong");
  const match = page.getByTestId("search-match").first();
  await expect(match.locator("mark")).toHaveText("average is wrong");
  await shoot(page, "sidebar");
});
