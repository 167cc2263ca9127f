import { expect, type Page, test } from "@playwright/test";

/**
 * Input made while the page's scripts are still loading (a slow machine): the HTML shows every
 * control, and a click, typing or Enter there is held and done once the page has hydrated, the
 * page meanwhile saying the click follows (components/boot/early-input.ts). Both had been lost
 * without a word. The page's scripts are held back here until the test lets them through.
 */

async function openWithScriptsHeld(page: Page): Promise<() => void> {
  let release = () => {};
  const scripts = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route("**/_next/static/chunks/*.js", async (route) => {
    await scripts;
    await route.continue();
  });
  await page.goto("/", { waitUntil: "commit" });
  await expect(page.getByLabel("Message")).toBeVisible();
  return release;
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
});

test("a click, typing and Enter made before hydration are done once the page is ready", async ({
  page,
}) => {
  const release = await openWithScriptsHeld(page);
  const debug = page.getByRole("button", { name: "Debug" });
  await expect(debug).toHaveAttribute("aria-pressed", "true");
  await debug.click();
  const message = page.getByLabel("Message");
  await message.pressSequentially("list the files");
  await message.press("Enter");
  // Held, not lost: the box keeps the text (Enter added no line) and the page says so.
  await expect(message).toHaveValue("list the files");
  await expect(page.locator("html")).toHaveAttribute("data-early-click", "");
  await expect(debug).toHaveAttribute("aria-pressed", "true");

  release();
  await expect(debug).toHaveAttribute("aria-pressed", "false");
  await expect(page.getByTestId("timeline")).toContainText("list the files");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await expect(message).toHaveValue("");
  await expect(page.locator("html")).not.toHaveAttribute("data-early-click");
  await expect(page.locator("html")).not.toHaveAttribute("data-early-input");
});

test("Send, clicked after typing before hydration, sends the text", async ({ page }) => {
  const release = await openWithScriptsHeld(page);
  const message = page.getByLabel("Message");
  const send = page.getByRole("button", { name: "Send" });
  await expect(send).toBeDisabled();
  await message.fill("what is 12 * (3 + 4)");
  // The text enables Send before the page's scripts run, so the click is not eaten.
  await expect(send).toBeEnabled();
  await send.click();
  release();
  await expect(page.getByTestId("timeline")).toContainText("what is 12 * (3 + 4)");
  await expect(message).toHaveValue("");
});

test("before hydration a 1024 px window gets the layout it will have: Send whole, no jump", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  const release = await openWithScriptsHeld(page);
  const conversation = page.getByRole("main", { name: "Conversation" });
  const send = page.getByRole("button", { name: "Send" });
  const debug = page.getByTestId("debug-region");
  const layout = async () => {
    const [main, button, panel] = [
      await conversation.boundingBox(),
      await send.boundingBox(),
      await debug.boundingBox(),
    ];
    if (main === null || button === null || panel === null) throw new Error("not laid out");
    return { main, button, panel };
  };
  const before = await layout();
  // The server planned for 1440 px: both panels inline left the conversation 250 px, Send under
  // the debug panel. At 1024 the sidebar is a drawer and the debug panel takes 36%.
  expect(before.main.width).toBeGreaterThanOrEqual(480);
  expect(before.button.x + before.button.width).toBeLessThanOrEqual(before.panel.x);
  await expect(page.getByRole("complementary", { name: "Transcripts" })).toBeHidden();
  release();
  await expect(page.locator("html")).not.toHaveAttribute("data-early-input");
  const after = await layout();
  expect(Math.abs(after.main.width - before.main.width)).toBeLessThan(2);
  expect(Math.abs(after.panel.x - before.panel.x)).toBeLessThan(2);
});

test("once hydrated, a click is the page's at once, done once", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator("html")).not.toHaveAttribute("data-early-input");
  const debug = page.getByRole("button", { name: "Debug" });
  await expect(debug).toHaveAttribute("aria-pressed", "true");
  await debug.click();
  await expect(debug).toHaveAttribute("aria-pressed", "false");
  await debug.click();
  await expect(debug).toHaveAttribute("aria-pressed", "true");
});
