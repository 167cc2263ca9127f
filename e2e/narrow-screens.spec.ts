import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { box, overlaps } from "./boxes";
import { importRecords } from "./import-records";
import { hydrated } from "./page-ready";

/**
 * The page on a laptop split and small screens (1024×768, 768×1024), where the transcripts and
 * the debug panel are drawers over the conversation: what a user reaches with the mouse and
 * with the keyboard there, and where the focus may land.
 */

const idle = (page: Page) => expect(page.getByRole("button", { name: "Send" })).toBeVisible();

async function send(page: Page, message: string) {
  await page.getByLabel("Message").fill(message);
  await page.getByLabel("Message").press("Enter");
  await idle(page);
}

test("a long transcript list scrolls inside the drawer, and opening it does not move the page", async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto("/");
  const stamp = Date.now();
  const record = {
    kind: "event",
    event: { type: "user", id: "u0", timestamp: 0, content: "hello" },
  };
  const target = await importRecords(page, { id: "drawer-target", title: `open one ${stamp}` }, [
    record,
  ]);
  // Newer ones above it: the open transcript sits far down the list, below the drawer's end.
  for (let index = 0; index < 30; index++)
    await importRecords(page, { id: `drawer-${index}`, title: `filler ${index} ${stamp}` }, [
      record,
    ]);
  await page.goto(`/t/${target}`);
  await hydrated(page);
  await page.getByRole("button", { name: "Transcripts" }).click();
  const drawer = page.getByTestId("sidebar-drawer");
  const open = drawer.locator(`[data-transcript-id="${target}"]`);
  await expect(open).toBeVisible();

  // The open transcript was scrolled into view inside the list, not by moving the whole page
  // (the top bar went off the top and a blank band showed at the bottom).
  expect((await box(page.getByRole("banner"))).y).toBe(0);
  const viewport = { x: 0, y: 0, width: 1024, height: 768 };
  const openBox = await box(open);
  expect(openBox.y + openBox.height).toBeLessThanOrEqual(viewport.height);
  // The list is the part that scrolls, and it ends on screen.
  const list = drawer.getByRole("complementary", { name: "Transcripts" });
  const listBox = await box(list);
  expect(listBox.y + listBox.height).toBeLessThanOrEqual(viewport.height + 0.5);
  const scroller = drawer.locator(".overflow-y-auto").first();
  const scrolls = await scroller.evaluate(
    (element) => element.scrollHeight > element.clientHeight + 100,
  );
  expect(scrolls).toBe(true);
});

test("Tab does not reach what a drawer dims: the transcripts drawer, then the debug drawer", async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.goto("/");
  await hydrated(page);
  await send(page, "list the files");
  const inDimmed = () =>
    page.evaluate(
      () =>
        document.activeElement?.closest("main, [data-testid=debug-region]:not([data-drawer])") !==
        null,
    );

  for (const [opener, drawerId] of [
    ["Transcripts", "sidebar-drawer"],
    ["Debug", "debug-region"],
  ] as const) {
    await page.getByRole("button", { name: opener, exact: true }).click();
    await expect(page.getByTestId(drawerId)).toBeVisible();
    // More Tabs than the drawer and the top bar hold together: a round through the page.
    for (let press = 0; press < 40; press++) {
      await page.keyboard.press("Tab");
      expect(await inDimmed(), `Tab ${press + 1} with the ${opener} drawer open`).toBe(false);
    }
    await page.keyboard.press("Escape");
    await expect(page.getByTestId(drawerId)).toBeHidden();
  }
});

test("a card the keyboard steps to stays clear of the Jump to latest button", async ({ page }) => {
  test.slow();
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.goto("/");
  await hydrated(page);
  await send(page, "search for average then edit it");
  await send(page, "list the files and read one");
  const timeline = page.getByTestId("timeline");
  // Read from the top: the view lets go of the bottom and offers the jump.
  await timeline.evaluate((element) => {
    element.scrollTop = 0;
  });
  const jump = page.getByRole("button", { name: "Jump to latest" });
  await expect(jump).toBeVisible();
  const first = timeline.locator("[data-event-id]").first();
  await first.focus();
  const focusedId = () =>
    page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.eventId ?? null);
  // Nothing is selected yet: the first J selects the first card, the one with the focus.
  await page.keyboard.press("j");
  await expect(first).toHaveAttribute("data-selected", "true");

  let checked = 0;
  for (let press = 0; press < 20; press++) {
    const before = await focusedId();
    await page.keyboard.press("j");
    // The card is scrolled to and focused in the frame after the key.
    await expect.poll(focusedId).not.toBe(before);
    if (!(await jump.isVisible())) break;
    const card = await box(timeline.locator("[data-event-id]:focus"));
    const button = await box(jump);
    const view = await box(timeline);
    // A card the step scrolled up from below the view: it ends near the view's bottom.
    if (card.y + card.height < view.y + view.height - 80) continue;
    checked++;
    expect(overlaps(card, button), `card ${press + 2} under the button`).toBe(false);
  }
  expect(checked, "no card was stepped to at the bottom of the view").toBeGreaterThan(0);
});

test("dialogs are dialogs and add no page landmarks; Raw in the debug drawer is a tab stop", async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.goto("/");
  await hydrated(page);
  await send(page, "explain the protocol in a long answer");
  for (const [opener, dialog] of [
    ["Connect", "Connect an agent"],
    ["Edit custom dialects", "Dialect editor"],
    ["Fork…", "Fork"],
  ] as const) {
    await page.getByRole("button", { name: opener, exact: true }).click();
    await expect(page.getByRole("dialog", { name: dialog })).toBeVisible();
    // One banner (the top bar), no page footer: a dialog's title row is not the page's.
    await expect(page.getByRole("banner")).toHaveCount(1);
    await expect(page.getByRole("contentinfo")).toHaveCount(0);
    // And the dialog role sits on an element that may have it (not a form).
    const results = await new AxeBuilder({ page })
      .include("[role=dialog]")
      .withRules(["aria-allowed-role"])
      .analyze();
    expect(
      results.violations.map((violation) => violation.id),
      dialog,
    ).toEqual([]);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: dialog })).toBeHidden();
  }

  // A shorter window: the answer's raw text is taller than the drawer.
  await page.setViewportSize({ width: 768, height: 600 });
  await page.getByRole("button", { name: "Debug", exact: true }).click();
  const raw = page.getByTestId("raw-view");
  await expect(raw).toBeVisible();
  expect(await raw.evaluate((element) => element.scrollHeight > element.clientHeight)).toBe(true);
  const results = await new AxeBuilder({ page })
    .include("[data-testid=raw-view]")
    .withRules(["scrollable-region-focusable"])
    .analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
});

test("a conversation picked in the transcripts drawer is shown: the drawer closes", async ({
  page,
}) => {
  test.slow();
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.goto("/");
  await hydrated(page);
  await send(page, "list the files");
  const first = page.url();
  await page.getByRole("button", { name: "New", exact: true }).click();
  await send(page, "what is 12 * (3 + 4)");
  const toggle = page.getByRole("button", { name: "Transcripts" });
  await toggle.click();
  const drawer = page.getByTestId("sidebar-drawer");
  const id = first.split("/t/")[1] ?? "";
  // From the keyboard: the row's open button, Enter.
  await drawer.locator(`[data-transcript-id="${id}"] [data-open-button]`).focus();
  await page.keyboard.press("Enter");
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(first);
  await expect(page.getByRole("heading", { level: 1, name: "list the files" })).toBeVisible();
  // The focus went back to where it was when the drawer opened.
  await expect(toggle).toBeFocused();
});
