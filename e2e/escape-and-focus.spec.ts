import { expect, type Page, test } from "@playwright/test";
import { hydrated, seedPreferences } from "./page-ready";

/**
 * Escape and the keyboard focus around dialogs, menus, drawers and the sidebar, as a keyboard
 * user meets them: an Escape that closes something must not also stop the run, a dialog opened
 * from the top bar takes the focus and gives it back, and renaming or deleting a transcript
 * from the keyboard leaves the focus in the list.
 */

const stop = (page: Page) => page.getByRole("button", { name: "Stop", exact: true });
const interrupts = (page: Page) =>
  page.getByTestId("timeline").locator("[data-event-type=interrupt]");

/**
 * The run went on: its tool call came, after every Escape above (a run stopped by one of
 * them would end with an interrupt instead, and no call would come).
 */
async function stillRunning(page: Page) {
  await expect(page.getByTestId("timeline").locator("[data-event-type=call]").first()).toBeVisible({
    timeout: 20_000,
  });
  await expect(interrupts(page)).toHaveCount(0);
  await expect(stop(page)).toBeVisible();
}

/** A demo run slow enough (~10 s) to open and close things while it goes on. */
async function startSlowRun(page: Page) {
  await seedPreferences(page, { paceMs: 250 });
  await page.getByLabel("Message").fill("list the files and read one");
  await page.keyboard.press("Enter");
  await expect(stop(page)).toBeVisible();
}

test("an Escape that closes a dialog, a drawer or the help does not stop the run", async ({
  page,
}) => {
  test.slow();
  await startSlowRun(page);

  await page.getByRole("button", { name: "Settings" }).click();
  await expect(page.getByRole("dialog", { name: "Run settings" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Run settings" })).toBeHidden();

  await page.getByRole("button", { name: "Connect" }).click();
  await expect(page.getByRole("dialog", { name: "Connect an agent" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Connect an agent" })).toBeHidden();

  await page.getByRole("button", { name: "Settings" }).focus();
  await page.keyboard.press("?");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: "Keyboard shortcuts" })).toBeHidden();

  await stillRunning(page);

  // An Escape that closes nothing still stops it.
  await page.getByLabel("Message").focus();
  await page.keyboard.press("Escape");
  await expect(interrupts(page)).toBeVisible();
});

test("an Escape that closes the transcripts drawer does not stop the run", async ({ page }) => {
  test.slow();
  await page.setViewportSize({ width: 768, height: 900 });
  await startSlowRun(page);
  await page.getByRole("button", { name: "Transcripts" }).click();
  await expect(page.getByTestId("sidebar-drawer")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByTestId("sidebar-drawer")).toBeHidden();
  await stillRunning(page);
  await stop(page).click();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
});

for (const { name, opener, dialog } of [
  { name: "Connect", opener: "Connect", dialog: "Connect an agent" },
  { name: "the dialect editor", opener: "Edit custom dialects", dialog: "Dialect editor" },
]) {
  test(`${name}: the focus moves in, Tab stays in, Escape closes and the focus comes back`, async ({
    page,
  }) => {
    await page.goto("/");
    await hydrated(page);
    const button = page.getByRole("button", { name: opener, exact: true });
    await button.focus();
    await page.keyboard.press("Enter");
    const panel = page.getByRole("dialog", { name: dialog });
    await expect(panel).toBeVisible();
    const inside = () =>
      page.evaluate(
        (label) => document.activeElement?.closest(`[role=dialog][aria-label="${label}"]`) !== null,
        dialog,
      );
    expect(await inside()).toBe(true);
    // More Tabs than the dialog has controls: the focus never reaches the page behind it.
    for (let press = 0; press < 40; press++) {
      await page.keyboard.press(press % 7 === 6 ? "Shift+Tab" : "Tab");
      expect(await inside()).toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(button).toBeFocused();
  });
}

test("renaming with Enter or Escape and deleting with Delete keep the focus in the list", async ({
  page,
  request,
}) => {
  // Three transcripts of their own, found by a search only they match.
  const tag = `focus-${Date.now()}`;
  for (const n of [1, 2, 3]) {
    const response = await request.post("/api/runs", {
      data: {
        message: `${tag} ${n} list the files`,
        dialect: "xml",
        model: { provider: "demo", settings: { paceMs: 0 } },
      },
    });
    expect(response.ok()).toBe(true);
    await response.body();
  }
  await page.goto("/");
  await hydrated(page);
  await page.getByLabel("Search transcripts").fill(tag);
  const rows = page.getByTestId("transcript-item");
  await expect(rows).toHaveCount(3);
  const open = (index: number) => rows.nth(index).locator("[data-open-button]");

  await open(0).focus();
  await page.keyboard.press("F2");
  await expect(page.getByLabel("Title")).toBeFocused();
  await page.keyboard.press("Control+a");
  await page.keyboard.type(`${tag} renamed`);
  await page.keyboard.press("Enter");
  await expect(rows.first()).toContainText(`${tag} renamed`);
  await expect(open(0)).toBeFocused();

  await page.keyboard.press("F2");
  await page.keyboard.press("Escape");
  await expect(open(0)).toBeFocused();

  // Deleting the middle row: the focus goes to the row after it.
  const third = await rows.nth(2).getAttribute("data-transcript-id");
  await page.keyboard.press("ArrowDown");
  await expect(open(1)).toBeFocused();
  await page.keyboard.press("Delete");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toHaveAttribute("data-transcript-id", third ?? "");
  await expect(open(1)).toBeFocused();
  // Deleting the last row: the one before it.
  await page.keyboard.press("Delete");
  await expect(rows).toHaveCount(1);
  await expect(open(0)).toBeFocused();
  // Deleting the only row left: the search field.
  await page.keyboard.press("Delete");
  await expect(rows).toHaveCount(0);
  await expect(page.getByLabel("Search transcripts")).toBeFocused();
});

test("Escape in the model picker or the export menu gives the focus back to its button", async ({
  page,
  request,
}) => {
  const response = await request.post("/api/runs", {
    data: {
      message: "list the files",
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs: 0 } },
    },
  });
  const transcriptId = response.headers()["x-transcript-id"];
  await response.body();
  await page.goto(`/t/${transcriptId}`);
  await hydrated(page);
  for (const { button, inside } of [
    { button: page.getByRole("button", { name: "Export" }), inside: page.getByRole("menu") },
    {
      button: page.getByRole("button", { name: /Demo \(scripted, offline\)/ }),
      inside: page.getByRole("dialog", { name: "Choose a model" }),
    },
  ]) {
    await button.focus();
    await page.keyboard.press("Enter");
    await expect(inside).toBeVisible();
    // It takes the focus as it opens (the model picker on the model in use).
    await expect
      .poll(() => inside.evaluate((element) => element.contains(document.activeElement)))
      .toBe(true);
    // On, inside the popover, as a keyboard user goes to pick something.
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    expect(await inside.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press("Escape");
    await expect(inside).toBeHidden();
    await expect(button).toBeFocused();
  }
});

test("the Export and Compare menus open with the focus on their first item; the arrows move it", async ({
  page,
  request,
}) => {
  const response = await request.post("/api/runs", {
    data: {
      message: "list the files",
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs: 0 } },
    },
  });
  const transcriptId = response.headers()["x-transcript-id"];
  await response.body();
  await page.goto(`/t/${transcriptId}`);
  await hydrated(page);
  const header = page.getByTestId("transcript-header");
  for (const [name, opening, first, second] of [
    ["Export", "Enter", /^JSONL/, /^TaskSteps JSON/],
    ["Compare", "ArrowDown", /^Compare with…/, /^Run again on…/],
  ] as const) {
    const button = header.getByRole("button", { name, exact: true });
    await button.focus();
    await page.keyboard.press(opening);
    const menu = page.getByRole("menu", { name });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole("menuitem", { name: first })).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(menu.getByRole("menuitem", { name: second })).toBeFocused();
    await page.keyboard.press("Home");
    await expect(menu.getByRole("menuitem", { name: first })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).toBeHidden();
    await expect(button).toBeFocused();
  }
});
