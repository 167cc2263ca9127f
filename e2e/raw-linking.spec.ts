import { expect, type Page, test } from "@playwright/test";

/**
 * Linking both ways when the other side is scrolled away: raw text picked in a long
 * conversation scrolls the timeline to its card (which the virtualized timeline had not even
 * rendered), and a card hovered whose span is off screen in Raw scrolls Raw to the span.
 */
const MESSAGES = [
  "list the files",
  "demo: parallel batch",
  "list the files and read one",
  "demo: dependencies",
  "calculate 12 * 7 + 3",
];

async function conversation(page: Page) {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await page.waitForFunction(() => {
    const composer = document.querySelector("textarea");
    return composer !== null && Object.keys(composer).some((key) => key.startsWith("__react"));
  });
  for (const message of MESSAGES) {
    await page.getByLabel("Message").fill(message);
    await page.getByLabel("Message").press("Enter");
    await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 20_000 });
  }
}

/** The id of the first event of `type` in turn 0 (from the page's store). */
function firstOfTurn0(page: Page, type: string): Promise<string> {
  return page.evaluate((wanted) => {
    const store = (
      window as unknown as {
        __wirescope: {
          getState(): { log: { events: { id: string; type: string; turn?: number }[] } };
        };
      }
    ).__wirescope;
    const event = store.getState().log.events.find((e) => e.type === wanted && e.turn === 0);
    if (event === undefined) throw new Error(`no ${wanted} in turn 0`);
    return event.id;
  }, type);
}

test("raw text picked far up selects its event and scrolls the timeline to its card", async ({
  page,
}) => {
  await conversation(page);
  const thinkId = await firstOfTurn0(page, "think");
  const card = page.locator(`[data-testid="timeline"] [data-event-id="${thinkId}"]`);
  // The timeline follows the newest card: the first turn's think card is out of view.
  await expect(card).not.toBeInViewport();

  const raw = page.getByTestId("raw-view");
  await raw.evaluate((element) => {
    element.scrollTop = 0;
  });
  const text = page.locator('[data-raw-turn="0"] [data-raw-text]');
  const content = (await text.textContent()) ?? "";
  const from = content.indexOf("<think>") + "<think>".length + 2;
  const box = await text.evaluate((root, offset) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    let total = 0;
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const length = (node as Text).length;
      if (offset + 6 <= total + length) {
        const range = document.createRange();
        range.setStart(node, offset - total);
        range.setEnd(node, offset - total + 6);
        const rect = range.getBoundingClientRect();
        return { x: rect.left, y: rect.top + rect.height / 2, right: rect.right };
      }
      total += length;
    }
    throw new Error("offset past the text");
  }, from);
  await page.mouse.move(box.x + 1, box.y);
  await page.mouse.down();
  await page.mouse.move(box.right - 1, box.y, { steps: 4 });
  await page.mouse.up();

  await expect(card).toHaveAttribute("data-selected", "true");
  await expect(card).toBeInViewport();
  await page.screenshot({ path: "test-results/raw-linking-raw-to-card.png" });
});

test("a card whose span is off screen in Raw brings the span into view on hover", async ({
  page,
}) => {
  await conversation(page);
  const callId = await firstOfTurn0(page, "call");
  const timeline = page.getByTestId("timeline");
  await timeline.evaluate((element) => {
    element.scrollTop = 0;
  });
  const card = timeline.locator(`[data-event-id="${callId}"]`);
  await expect(card).toBeInViewport();
  const raw = page.getByTestId("raw-view");
  await raw.evaluate((element) => {
    element.scrollTop = element.scrollHeight;
  });
  await expect(page.locator('[data-raw-turn="0"]')).not.toBeInViewport();

  await card.hover();
  const span = page.locator('[data-span-highlight="hover"]');
  await expect.poll(async () => (await span.allTextContents()).join("")).toContain('"name":"list"');
  await expect(span.first()).toBeInViewport();
  await page.screenshot({ path: "test-results/raw-linking-card-to-raw.png" });
});
