import { expect, type Page, test } from "@playwright/test";
import { parallelCalls as recordedCalls } from "../lib/replay/fixtures.testing";
import { importRecords } from "./import-records";

/**
 * Calls an agent made at the same time, as the capture proxy records them (a run each, their
 * records interleaved as they arrived): replay plays them side by side at their recorded pace,
 * so the replay lasts about as long as the calls did, and the wall time counts them once.
 */
const EPOCH = 1_700_000_000_000;
const WORDS = 40;
const CALLS = ["a", "b", "c"] as const;

/** Three calls of 6 s, started 15 ms apart: word k of each at 40 + 150·k ms into its call. */
const parallelCalls = () =>
  recordedCalls({
    epoch: EPOCH,
    names: CALLS,
    content: "three questions at once",
    words: WORDS,
    word: (name, index) => `${name}${index} `,
    tokens: { input: 10, output: WORDS },
    tokenSource: "provider",
  });

/** The respond texts the page's log shows, in order. */
function responds(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const store = (
      window as unknown as {
        __wirescope: { getState(): { log: { events: { type: string; content?: string }[] } } };
      }
    ).__wirescope;
    return store
      .getState()
      .log.events.filter((event) => event.type === "respond")
      .map((event) => event.content ?? "");
  });
}

test("calls made at the same time replay side by side, in about the time they ran", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const id = await importRecords(
    page,
    { id: "parallel-calls", title: "Three at once" },
    parallelCalls(),
  );
  await page.goto(`/t/${id}`);
  const bar = page.getByTestId("replay-bar");
  // The three calls' 6 s from the first start to the last end (30 ms apart), not minutes.
  await expect(bar.getByTestId("replay-duration")).toHaveText("0:06.0");
  // The run's wall time counts them once (6,030 ms), not three times.
  await expect(page.locator('[data-stat="duration"]').first()).toHaveAttribute(
    "data-value",
    "6030",
  );

  // By keyboard: to the start, then 3 s on (30 steps of 100 ms).
  const scrubber = bar.getByTestId("replay-scrubber");
  await scrubber.focus();
  await scrubber.press("Home");
  for (let step = 0; step < 30; step++) await scrubber.press("ArrowRight");
  await expect(bar.getByTestId("replay-time")).toHaveText("0:03.0");
  // Half-way through, each call has streamed half of its words (word 19 at 2,890 ms into it,
  // word 20 at 3,040 ms), side by side.
  await expect.poll(async () => (await responds(page)).length).toBe(3);
  const shown = await responds(page);
  for (const [index, name] of CALLS.entries()) {
    expect(shown[index]).toContain(`${name}19`);
    expect(shown[index]).not.toContain(`${name}20`);
  }
});
