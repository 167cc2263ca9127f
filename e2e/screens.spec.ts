import { mkdirSync } from "node:fs";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { box, overlaps } from "./boxes";

/**
 * The playground on real screens: at 1440×900, 1024×768 and 800×900, in both themes (the OS
 * scheme, followed until the user picks one), the main regions and controls do not overlap,
 * the conversation column and the composer keep usable widths, and nothing scrolls sideways.
 * Screenshots go to test-results/screens/ for a person to look at.
 */

/** The narrowest the conversation column may get (lib/client/layout.ts MIN_CONVERSATION). */
const MIN_CONVERSATION = 480;
/** The composer's text box keeps at least this much beside its Send button. */
const MIN_COMPOSER = 360;
const MIN_SCRUBBER = 96;

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 768 },
  { width: 800, height: 900 },
] as const;
const SHOTS = "test-results/screens";

async function expectApart(page: Page, locators: Record<string, Locator>) {
  const entries = await Promise.all(
    Object.entries(locators).map(async ([name, locator]) => [name, await box(locator)] as const),
  );
  const viewport = page.viewportSize();
  for (const [name, at] of entries) {
    expect(at.x, `${name} starts on screen`).toBeGreaterThanOrEqual(-0.5);
    if (viewport !== null)
      expect(at.x + at.width, `${name} ends on screen`).toBeLessThanOrEqual(viewport.width + 0.5);
  }
  for (let i = 0; i < entries.length; i++)
    for (let j = i + 1; j < entries.length; j++) {
      const [nameA, a] = entries[i] ?? [];
      const [nameB, b] = entries[j] ?? [];
      if (a === undefined || b === undefined) continue;
      expect(overlaps(a, b), `${nameA} overlaps ${nameB}`).toBe(false);
    }
}

const idle = (page: Page) => expect(page.getByRole("button", { name: "Send" })).toBeVisible();

async function runDemo(page: Page, message: string) {
  await page.getByLabel("Message").fill(message);
  await page.getByLabel("Message").press("Enter");
  await idle(page);
  await expect(page.getByTestId("replay-bar")).toBeVisible();
}

test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

for (const colorScheme of ["dark", "light"] as const) {
  for (const size of SIZES) {
    const name = `${size.width}x${size.height}-${colorScheme}`;
    test(`layout at ${name}: no overlap, usable widths`, async ({ page }) => {
      await page.setViewportSize(size);
      await page.emulateMedia({ colorScheme });
      await page.goto("/");
      await expect(page.locator("html")).toHaveAttribute("data-theme", colorScheme);
      await page.screenshot({ path: `${SHOTS}/${name}-empty.png` });
      await runDemo(page, "list the files");

      const main = page.getByRole("main", { name: "Conversation" });
      const header = page.getByTestId("transcript-header");
      const topBar = page.locator("body > div > header").first();
      const debugInline = size.width >= 1024;
      const sidebarInline = size.width >= 1440;

      // Regions side by side, none over another.
      const regions: Record<string, Locator> = { topBar, main };
      if (debugInline) regions.debug = page.getByTestId("debug-region");
      if (sidebarInline) regions.sidebar = page.getByRole("complementary", { name: "Transcripts" });
      await expectApart(page, regions);
      expect((await box(main)).width).toBeGreaterThanOrEqual(
        Math.min(size.width, MIN_CONVERSATION),
      );

      // The controls people reach for, none over another or off screen.
      const controls: Record<string, Locator> = {
        send: page.getByRole("button", { name: "Send" }),
        message: page.getByLabel("Message"),
        export: header.getByRole("button", { name: "Export" }),
        fork: header.getByRole("button", { name: /^Fork/ }),
        rerun: header.getByRole("button", { name: "Re-run with replay model" }),
        play: page.getByTestId("replay-bar").getByRole("button", { name: "Play" }),
        speed: page.getByLabel("Replay speed"),
        scrubber: page.getByTestId("replay-scrubber"),
        time: page.getByTestId("replay-duration"),
        settings: topBar.getByRole("button", { name: "Settings" }),
        newButton: topBar.getByRole("button", { name: "New", exact: true }),
        debugButton: topBar.getByRole("button", { name: "Debug" }),
        help: topBar.getByRole("button", { name: "Keyboard shortcuts" }),
        dialect: topBar.getByRole("group", { name: "Dialect" }),
      };
      if (debugInline) controls.debugTabs = page.getByRole("tablist", { name: "Debug views" });
      await expectApart(page, controls);
      expect((await box(controls.message as Locator)).width).toBeGreaterThanOrEqual(MIN_COMPOSER);
      expect((await box(controls.scrubber as Locator)).width).toBeGreaterThanOrEqual(MIN_SCRUBBER);

      // Nothing scrolls sideways.
      const sideways = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(sideways).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/${name}-run.png` });

      // On narrow windows the debug panel is a drawer: it opens over the conversation and
      // closes on Esc, with the focus back on its button.
      if (!debugInline) {
        await expect(page.getByTestId("debug-region")).toHaveCount(0);
        const button = topBar.getByRole("button", { name: "Debug" });
        await button.click();
        const drawer = page.getByTestId("debug-region");
        await expect(drawer).toBeVisible();
        await expectApart(page, {
          tabs: drawer.getByRole("tablist", { name: "Debug views" }),
          close: drawer.getByRole("button", { name: "Close" }),
        });
        await page.screenshot({ path: `${SHOTS}/${name}-debug-drawer.png` });
        await page.keyboard.press("Escape");
        await expect(drawer).toHaveCount(0);
        await expect(button).toBeFocused();
      }
      if (!sidebarInline) {
        await topBar.getByRole("button", { name: "Transcripts" }).click();
        const drawer = page.getByTestId("sidebar-drawer");
        await expect(drawer.getByRole("searchbox", { name: "Search transcripts" })).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/${name}-sidebar-drawer.png` });
        // A click on the dimmed conversation closes it.
        await page.mouse.click(size.width - 20, size.height / 2);
        await expect(drawer).toHaveCount(0);
      }
    });
  }
}

test("the transcript header and replay bar are there from the start of the first run", async ({
  page,
}) => {
  // A slow demo pace, so the run is still going when the header is measured.
  await page.goto("/");
  await page.evaluate(() =>
    localStorage.setItem(
      "wirescope:preferences",
      JSON.stringify({ version: 1, values: { paceMs: 40 } }),
    ),
  );
  await page.reload();
  await expect(page.getByTestId("transcript-header")).toHaveCount(0);
  await page.getByLabel("Message").fill("list the files");
  await page.getByLabel("Message").press("Enter");
  const header = page.getByTestId("transcript-header");
  await expect(header).toHaveAttribute("data-pending", "true");
  // Titled already by the message that started it, as it will be stored.
  await expect(header.getByText("list the files", { exact: true })).toBeVisible();
  const pendingHeight = (await box(header)).height;
  await idle(page);
  await expect(header).not.toHaveAttribute("data-pending", "true");
  expect(Math.abs((await box(header)).height - pendingHeight)).toBeLessThanOrEqual(1);
});
