import { expect, type Page, test } from "@playwright/test";
import { hydrated, PREFERENCES, seedPreferences } from "./page-ready";

/**
 * Keyboard and habits: the `?` overlay, preferences that survive a reload (with the theme
 * painted before the first frame), and a walk through send, stop, replay and fork without
 * the mouse.
 */

const timeline = (page: Page) => page.getByTestId("timeline");
const idle = (page: Page) => expect(page.getByRole("button", { name: "Send" })).toBeVisible();

test("? opens the shortcuts help; Esc closes it and the focus goes back", async ({ page }) => {
  await page.goto("/");
  await hydrated(page);
  const help = page.getByRole("button", { name: "Keyboard shortcuts" });
  await help.focus();
  await page.keyboard.press("?");
  const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Play or pause the replay");
  await page.screenshot({ path: "test-results/screens/help.png" });
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(help).toBeFocused();

  // Typing "?" in the composer types it.
  await page.keyboard.press("/");
  await expect(page.getByLabel("Message")).toBeFocused();
  await page.keyboard.type("why?");
  await expect(page.getByLabel("Message")).toHaveValue("why?");
  await expect(dialog).toHaveCount(0);
});

test("preferences survive a reload", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await hydrated(page);
  await page
    .getByRole("group", { name: "Dialect" })
    .getByText("delimiter", { exact: true })
    .click();
  await page.getByRole("button", { name: "Switch to the light theme" }).click();
  await page.getByLabel("Message").fill("a draft, not sent");
  await page.getByRole("tab", { name: /Events/ }).click();
  await page.getByRole("button", { name: "Transcripts" }).click();
  const before = (await page.getByTestId("debug-region").boundingBox())?.width ?? 0;
  await page.getByRole("separator", { name: "Resize the debug panel" }).focus();
  for (let step = 0; step < 4; step++) await page.keyboard.press("ArrowLeft");
  const resized = (await page.getByTestId("debug-region").boundingBox())?.width ?? 0;
  expect(resized).toBeGreaterThan(before);
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByLabel("Temperature").fill("0.3");
  await page.keyboard.press("Escape");

  // The theme is on the page before its first frame: no flash of the dark one.
  await page.addInitScript(() => {
    requestAnimationFrame(() => {
      (window as unknown as { firstFrameTheme?: string }).firstFrameTheme =
        document.documentElement.dataset.theme;
    });
  });
  await page.reload();
  expect(await page.evaluate(() => (window as { firstFrameTheme?: string }).firstFrameTheme)).toBe(
    "light",
  );
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await expect(
    page.getByRole("group", { name: "Dialect" }).getByRole("radio", { name: "delimiter" }),
  ).toBeChecked();
  await expect(page.getByLabel("Message")).toHaveValue("a draft, not sent");
  await expect(page.getByRole("tab", { name: /Events/ })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("complementary", { name: "Transcripts" })).toHaveCount(0);
  expect((await page.getByTestId("debug-region").boundingBox())?.width).toBeCloseTo(resized, 0);
  await page.getByRole("button", { name: "Settings" }).click();
  await expect(page.getByLabel("Temperature")).toHaveValue("0.3");
});

test("garbage in storage is ignored and the OS theme is followed until one is chosen", async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  await page.evaluate((key) => localStorage.setItem(key, "{not json"), PREFERENCES);
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByLabel("Message")).toHaveValue("");
});

test("keyboard only: send, stop, replay and fork", async ({ page }) => {
  test.slow(); // two runs and a replay
  await seedPreferences(page, { paceMs: 150 });

  // Send.
  await page.keyboard.press("/");
  await expect(page.getByLabel("Message")).toBeFocused();
  await page.keyboard.type("list the files and read one");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  // Let it get as far as a tool call, so the recording is long enough to pause a replay of.
  await expect(timeline(page).locator("[data-event-type=call]").first()).toBeVisible({
    timeout: 20_000,
  });

  // Stop.
  await page.keyboard.press("Escape");
  await idle(page);
  await expect(timeline(page).locator("[data-event-type=interrupt]")).toBeVisible();
  await expect(page.getByTestId("replay-bar")).toBeVisible();

  // Esc again leaves the composer, so the single-key shortcuts work.
  await page.keyboard.press("Escape");
  await expect(page.getByLabel("Message")).not.toBeFocused();

  // Replay: Space plays, Space pauses (once the replay has shown more than the message, so
  // J/K below have cards to move between).
  const bar = page.getByTestId("replay-bar");
  await page.keyboard.press(" ");
  await expect(bar.getByRole("button", { name: "Pause", exact: true })).toBeVisible();
  await expect(timeline(page).locator("[data-event-type]").nth(1)).toBeVisible();
  await page.keyboard.press(" ");
  await expect(bar.getByRole("button", { name: "Play", exact: true })).toBeVisible();
  await expect(bar.getByRole("button", { name: "Exit replay" })).toBeVisible();

  // J/K move between the cards; the focused card is selected.
  await page.keyboard.press("j");
  const first = timeline(page).locator("[data-selected]");
  await expect(first).toHaveAttribute("data-event-type", "user");
  await expect(first).toBeFocused();
  await page.keyboard.press("j");
  await expect(first).not.toHaveAttribute("data-event-type", "user");
  await page.keyboard.press("k");
  await expect(timeline(page).locator("[data-selected]")).toHaveAttribute(
    "data-event-type",
    "user",
  );

  // Fork at the selected user message, edit it, and run it: all from the keyboard.
  await page.keyboard.press("f");
  const dialog = page.getByRole("dialog", { name: "Fork" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("textbox")).toBeFocused();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("what is 2+2");
  const submit = dialog.getByRole("button", { name: "Fork and run" });
  for (
    let tab = 0;
    tab < 20 && !(await submit.evaluate((el) => el === document.activeElement));
    tab++
  )
    await page.keyboard.press("Tab");
  await expect(submit).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(timeline(page).locator("[data-event-type=user]")).toHaveText("what is 2+2");
  // The fork runs at the seeded slow pace.
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("forked-from")).toBeVisible();
});

test("a skip link leads to the message box; cards are tab stops with copy buttons", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  await hydrated(page);
  // The first Tab on the page reaches the skip link.
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to the message box" });
  await expect(skip).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Message")).toBeFocused();
  await page.keyboard.type("list the files");
  await page.keyboard.press("Enter");
  await idle(page);

  const respond = timeline(page).locator("[data-event-type=respond]").first();
  await respond.focus();
  await page.keyboard.press("Enter");
  await expect(respond).toHaveAttribute("data-selected", "true");
  const copy = respond.getByRole("button", { name: "Copy answer" });
  await copy.focus();
  await page.keyboard.press("Enter");
  await expect(respond.getByRole("button", { name: /Copied/ })).toBeVisible();
  const id = await respond.getAttribute("data-event-id");
  const [copied, content] = await page.evaluate((eventId) => {
    type Store = { getState(): { log: { get(id: string): { content?: string } | undefined } } };
    const store = (window as unknown as { __wirescope: Store }).__wirescope;
    return Promise.all([
      navigator.clipboard.readText(),
      store.getState().log.get(eventId ?? "")?.content,
    ]);
  }, id);
  expect(copied.length).toBeGreaterThan(0);
  expect(copied).toBe(content);
});
