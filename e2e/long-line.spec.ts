import { expect, test } from "@playwright/test";
import { importRecords } from "./import-records";

/**
 * Model output as it comes from outside: one 200,000-character line with no space in it, right
 * to left text, emoji sequences, zero-width and direction-changing characters. The page opens it
 * and stays usable. In `system-ui` (the sans stack had it) Chromium on Linux lays such a line
 * out in quadratic time: this transcript froze the page for over a minute, past any timeout here.
 */
const LONG = "A".repeat(200_000);
const ODD =
  "مرحبا بالعالم — שלום עולם \u202Ereversed\u202C 👩‍👩‍👧‍👦🏳️‍🌈 zero\u200Bwidth\u2066iso\u2069";

test("a 200 KB line without spaces and RTL / emoji / zero-width text open and stay usable", async ({
  page,
}) => {
  test.slow();
  const text = `<respond>${ODD} ${LONG} end of it</respond>`;
  const id = await importRecords(page, { id: "long-line", title: "A long line" }, [
    { kind: "event", event: { type: "user", id: "u", timestamp: 1, content: "go" } },
    { kind: "request", turn: 0, provider: "demo", model: "demo", messages: [], settings: {}, t: 0 },
    { kind: "chunk", turn: 0, t: 1, text },
    {
      kind: "event",
      event: {
        type: "respond",
        id: "r",
        timestamp: 2,
        turn: 0,
        span: { start: 9, end: text.length - 10 },
        content: `${ODD} ${LONG} end of it`,
      },
    },
  ]);
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(`/t/${id}`);
  const card = page.locator("[data-event-type=respond]");
  await expect(card).toContainText("end of it");
  await expect(card).toContainText("שלום עולם");
  // The line wraps inside its card: nothing wider than the window.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1024);
  // Still answering input: the message box takes text.
  await page.getByLabel("Message").fill("still here");
  await expect(page.getByLabel("Message")).toHaveValue("still here");
  const font = await page.evaluate(() => getComputedStyle(document.body).fontFamily);
  expect(font).not.toContain("system-ui");
});
