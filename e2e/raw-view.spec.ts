import { expect, type Locator, type Page, test } from "@playwright/test";

/**
 * Raw's gutter and visible whitespace on the demo model: the symbols show (the pixels over a
 * space change when the toggle is on), they are no text (the raw text is unchanged), the
 * switch survives a reload, and hover and selection still link exactly with both on.
 */
const CALL_SPAN = '{"name":"list","args":{"path":"."}}';

const rawText = (page: Page) => page.locator('[data-raw-turn="0"] [data-raw-text]');
const callCard = (page: Page) =>
  page.getByTestId("timeline").locator("[data-event-type=call]").first();
const thinkCard = (page: Page) =>
  page.getByTestId("timeline").locator("[data-event-type=think]").first();
const toggle = (page: Page) => page.getByRole("button", { name: "Show whitespace" });

async function highlighted(page: Page): Promise<string> {
  return (await page.locator("[data-span-highlight]").allTextContents()).join("");
}

/** The viewport box of raw character `offset` (walking text nodes, as dom-offset does). */
function characterBox(text: Locator, offset: number) {
  return text.evaluate((root, wanted) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let total = 0;
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const length = (node as Text).length;
      if (wanted < total + length) {
        const range = document.createRange();
        range.setStart(node, wanted - total);
        range.setEnd(node, wanted - total + 1);
        const rect = range.getBoundingClientRect();
        return { x: rect.left, y: rect.top, width: rect.width, height: rect.height };
      }
      total += length;
    }
    throw new Error(`offset ${wanted} is past the text`);
  }, offset);
}

test("visible whitespace and the gutter keep Raw's linking exact", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await page.waitForFunction(() => {
    const composer = document.querySelector("textarea");
    return composer !== null && Object.keys(composer).some((key) => key.startsWith("__react"));
  });
  await page.getByRole("group", { name: "Dialect" }).getByText("xml", { exact: true }).click();
  await page.getByLabel("Message").fill("list the files");
  await page.getByLabel("Message").press("Enter");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  await page.getByRole("tab", { name: /^Raw/ }).click();

  const text = rawText(page);
  await expect(text).toContainText("<think>");
  const raw = (await text.textContent()) ?? "";
  // The gutter numbers each real line once.
  await expect(text.locator("[data-line]")).toHaveCount(raw.replace(/\n$/, "").split("\n").length);

  // A space inside the think block: its pixels before and after the toggle.
  const space = raw.indexOf(" ", raw.indexOf("<think>"));
  await page.mouse.move(5, 5);
  const box = await characterBox(text, space);
  expect(box.width).toBeGreaterThan(0);
  const before = await page.screenshot({ clip: box });
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "false");
  await toggle(page).click();
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
  const mark = text.locator("[data-ws]").first();
  await expect(mark).toHaveAttribute("data-ws", /^[·↵→␍]+$/);
  // Its symbols are what its ::before shows, with empty alternative text for screen readers.
  const glyph = await mark.getAttribute("data-ws");
  expect(await mark.evaluate((node) => getComputedStyle(node, "::before").content)).toBe(
    `"${glyph}" / ""`,
  );
  const after = await page.screenshot({ clip: box });
  expect(after.equals(before)).toBe(false);
  // The symbols are drawn, not written: the raw text is what it was.
  expect(await text.textContent()).toBe(raw);
  await page.screenshot({ path: "test-results/raw-view-whitespace-dark.png" });

  // Card → raw: hovering the call card highlights exactly the call's JSON.
  await callCard(page).hover();
  await expect.poll(() => highlighted(page)).toBe(CALL_SPAN);

  // Raw → card: dragging over words of the think block (across a drawn space) selects it.
  const from = raw.indexOf("wants to see");
  const first = await characterBox(text, from);
  const last = await characterBox(text, from + "wants to see".length - 1);
  await page.mouse.move(first.x + 1, first.y + first.height / 2);
  await page.mouse.down();
  await page.mouse.move(last.x + last.width - 1, last.y + last.height / 2, { steps: 4 });
  await page.mouse.up();
  await expect(thinkCard(page)).toHaveAttribute("data-selected", "true");

  // The switch is a preference: it is still on after a reload.
  await page.reload();
  await expect(toggle(page)).toHaveAttribute("aria-pressed", "true");
});
