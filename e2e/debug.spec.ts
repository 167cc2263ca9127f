import { expect, type Locator, type Page, test } from "@playwright/test";

/**
 * The debug panel on the demo model, per dialect: an event hovered in the timeline lights
 * up exactly its span in the raw text, raw text picked with the mouse selects the event that
 * owns it, error spans are marked, and the Request view shows what turn 1 was sent.
 * Screenshots go to test-results/ so a person can look at them.
 */
const DIALECTS = ["xml", "delimiter", "action"] as const;
type Dialect = (typeof DIALECTS)[number];

/** The call's span in the raw text, per dialect (docs/README.md: a call spans its JSON element). */
const CALL_SPAN: Record<Dialect, string> = {
  xml: '{"name":"list","args":{"path":"."}}',
  delimiter: '§call: {"name":"list","args":{"path":"."}}',
  action:
    '<action type="tool" mode="sync" id="call1">\n{"name":"list","parameters":{"path":"."}}\n</action>',
};
const THINK_MARKER: Record<Dialect, string> = {
  xml: "<think>",
  delimiter: "§think:",
  action: "<thought>",
};
const RESULTS_MARKER: Record<Dialect, string> = {
  xml: "<results>",
  delimiter: "[SYSTEM:",
  action: "<results>",
};
const INVALID_CODE: Record<Dialect, string> = {
  xml: "invalid_json",
  delimiter: "invalid_call",
  action: "invalid_json",
};

const timeline = (page: Page) => page.getByTestId("timeline");
const card = (page: Page, type: string) =>
  timeline(page).locator(`[data-event-type=${type}]`).first();
const rawTurn = (page: Page, turn: number) =>
  page.locator(`[data-raw-turn="${turn}"] [data-raw-text]`);
const idle = (page: Page) => expect(page.getByRole("button", { name: "Send" })).toBeVisible();

async function open(page: Page, dialect: Dialect) {
  await page.goto("/");
  // Wait for React to hydrate the composer, so clicks and keys reach its handlers.
  await page.waitForFunction(() => {
    const composer = document.querySelector("textarea");
    return composer !== null && Object.keys(composer).some((key) => key.startsWith("__react"));
  });
  await page.getByRole("group", { name: "Dialect" }).getByText(dialect, { exact: true }).click();
}

async function send(page: Page, message: string) {
  await page.getByLabel("Message").fill(message);
  await page.getByLabel("Message").press("Enter");
}

async function tab(page: Page, name: string) {
  await page.getByRole("tab", { name: new RegExp(`^${name}`) }).click();
}

/** The text of everything the raw view highlights, in document order. */
async function highlighted(page: Page): Promise<string> {
  const parts = await page.locator("[data-span-highlight]").allTextContents();
  return parts.join("");
}

/** Viewport boxes of characters `from` and `to - 1` of a raw turn's text. */
async function characterBoxes(text: Locator, from: number, to: number) {
  return text.evaluate(
    (root, [start, end]) => {
      const box = (offset: number) => {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        let total = 0;
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const length = (node as Text).length;
          if (offset < total + length) {
            const range = document.createRange();
            range.setStart(node, offset - total);
            range.setEnd(node, offset - total + 1);
            const rect = range.getBoundingClientRect();
            return { x: rect.left, y: rect.top + rect.height / 2, right: rect.right };
          }
          total += length;
        }
        throw new Error(`offset ${offset} is past the text`);
      };
      return { first: box(start as number), last: box((end as number) - 1) };
    },
    [from, to],
  );
}

for (const dialect of DIALECTS) {
  test.describe(`debug panel, ${dialect} dialect`, () => {
    test("hover and selection link events and raw spans both ways", async ({ page }) => {
      await open(page, dialect);
      await send(page, "list the files");
      await idle(page);
      await tab(page, "Raw");
      const turn0 = rawTurn(page, 0);
      await expect(turn0).toContainText(THINK_MARKER[dialect]);

      // Timeline → raw: hovering the call card lights up exactly the call's span.
      await expect(page.locator("[data-span-highlight]")).toHaveCount(0);
      await card(page, "call").hover();
      await expect.poll(() => highlighted(page)).toBe(CALL_SPAN[dialect]);
      expect(await highlighted(page)).toContain('{"name":"list"');
      await page.screenshot({ path: `test-results/debug-${dialect}-hover-dark.png` });

      // Raw → timeline: dragging over text inside the think block selects the think event.
      const raw = (await turn0.textContent()) ?? "";
      const from = raw.indexOf("wants to see");
      expect(from).toBeGreaterThan(0);
      const boxes = await characterBoxes(turn0, from, from + "wants to see".length);
      await page.mouse.move(boxes.first.x + 1, boxes.first.y);
      await page.mouse.down();
      await page.mouse.move(boxes.last.right - 1, boxes.last.y, { steps: 4 });
      await page.mouse.up();
      await expect(card(page, "think")).toHaveAttribute("data-selected", "true");
      await expect
        .poll(() => highlighted(page))
        .toMatch(new RegExp(`^${escapeRegExp(THINK_MARKER[dialect])}\\s*The user wants`));
      await tab(page, "Events");
      await expect(page.locator('[data-event-row=think][aria-selected="true"]')).toHaveCount(1);

      // A plain click on a character of the call selects the call.
      await tab(page, "Raw");
      const callAt = raw.indexOf('"name":"list"') + 3;
      const click = await characterBoxes(turn0, callAt, callAt + 1);
      await page.mouse.click(click.first.x + 2, click.first.y);
      await expect(card(page, "call")).toHaveAttribute("data-selected", "true");
      await page.mouse.move(5, 5);
      await expect.poll(() => highlighted(page)).toBe(CALL_SPAN[dialect]);

      await page.getByRole("button", { name: "Switch to the light theme" }).click();
      await page.screenshot({ path: `test-results/debug-${dialect}-selected-light.png` });
    });

    test("error spans are marked in the raw view", async ({ page }) => {
      await open(page, dialect);
      await send(page, "demo: invalid json");
      await idle(page);
      await tab(page, "Raw");
      const marked = page.locator("[data-raw-turn] [data-error-span]").first();
      await expect(marked).toBeVisible();
      await expect(marked).toHaveAttribute("title", new RegExp(`^${INVALID_CODE[dialect]}: `));
      await page.screenshot({ path: `test-results/debug-${dialect}-error-dark.png` });
    });

    test("the Request view shows what turn 1 was sent", async ({ page }) => {
      await open(page, dialect);
      await send(page, "list the files");
      await idle(page);
      await tab(page, "Request");
      const view = page.locator("[data-request-view]");
      await expect(view).toHaveAttribute("data-request-view", "1");
      const messages = view.locator("[data-request-message]");
      await expect(messages).toHaveCount(4);
      // Turn 0's results block goes back to the model as a user message.
      await expect(view.locator("[data-request-message=user]").last()).toContainText(
        RESULTS_MARKER[dialect],
      );
      await expect(view.locator("[data-request-message=assistant]")).toContainText(
        '{"name":"list"',
      );
      // The system prompt of the chosen dialect, opened from its collapsed header.
      const system = view.locator("[data-request-message=system]");
      await system.getByRole("button").click();
      await expect(system).toContainText(`Protocol (${dialect})`);
      await page.screenshot({ path: `test-results/debug-${dialect}-request-dark.png` });

      // Selecting a turn-0 event in the timeline selects turn 0's request.
      await card(page, "call").click();
      await expect(view).toHaveAttribute("data-request-view", "0");
      await expect(messages).toHaveCount(2);
      await page.getByRole("button", { name: "turn 1" }).click();
      await expect(view).toHaveAttribute("data-request-view", "1");
      await page.getByRole("button", { name: "Switch to the light theme" }).click();
      await page.screenshot({ path: `test-results/debug-${dialect}-request-light.png` });
    });
  });
}

test("Chunks and Events views on a run", async ({ page }) => {
  await open(page, "xml");
  await send(page, "demo: parallel batch");
  await idle(page);
  await tab(page, "Chunks");
  const rows = page.locator("[data-chunk]");
  await expect(rows.first()).toBeVisible();
  // Whitespace is visible: the blank line after </think> is drawn as ↵↵.
  await expect(page.getByTestId("chunks-view")).toContainText("↵");
  await page.screenshot({ path: "test-results/debug-chunks-dark.png" });

  await tab(page, "Events");
  await page
    .getByRole("group", { name: "Filter events by type" })
    .getByRole("button", { name: /^call/ })
    .click();
  const eventRows = page.locator("[data-event-row]");
  await expect(eventRows).toHaveCount(3);
  await expect(page.locator("[data-event-row]:not([data-event-row=call])")).toHaveCount(0);
  await page.getByRole("button", { name: "Switch to the light theme" }).click();
  await page.screenshot({ path: "test-results/debug-events-light.png" });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
