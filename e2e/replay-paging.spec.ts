import { expect, type Page, type Route, test } from "@playwright/test";
import { mergePieces, type TranscriptRecord } from "../lib/protocol";
import { streamedTurn } from "../lib/replay/fixtures.testing";
import { importRecords } from "./import-records";

/**
 * Replay of a long conversation opened from its tail: Play starts from the first run before
 * the rest is read, knows the whole length from the first page, reads on as it plays, and a
 * seek to a place not read yet says it is loading, reads up to there, and then shows exactly
 * the recorded events, in order.
 */
const RUNS = 300;
const TURN_TEXT =
  '<think>Look at the files first.</think>\n<execute>[{"name": "list", "args": {}}]</execute>\n';

function records(): (TranscriptRecord & { runId: string })[] {
  const out: (TranscriptRecord & { runId: string })[] = [];
  for (let run = 0; run < RUNS; run++) {
    const runId = `r${run}`;
    const at = 1_700_000_000_000 + run * 60_000;
    out.push({
      kind: "event",
      runId,
      event: { type: "user", id: `u${run}`, timestamp: at, content: `message number ${run}` },
    });
    // Each run ends with its metric, as the agent loop writes it (a run without one may still
    // go on: the planner waits longer for it).
    out.push(
      ...streamedTurn({
        runId,
        turn: run,
        text: TURN_TEXT,
        size: 8,
        t: 0,
        epoch: at,
        metricAt: at + TURN_TEXT.length,
        durationMs: TURN_TEXT.length,
      }),
    );
  }
  return out;
}

const importConversation = (page: Page, all: readonly TranscriptRecord[]) =>
  importRecords(page, { id: "paged-replay", title: "A long conversation" }, all);

/** The ids of the events the page's log shows, in order. */
function shownIds(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const store = (
      window as unknown as {
        __wirescope: { getState(): { log: { events: { id: string }[] } } };
      }
    ).__wirescope;
    return store.getState().log.events.map((event) => event.id);
  });
}

test("replay of a long conversation starts before the rest is read and loads a place sought", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const all = records();
  const id = await importConversation(page, all);
  const recorded = mergePieces(
    all.flatMap((record) => (record.kind === "event" ? [record.event] : [])),
  ).map((event) => event.id);

  // Reads from the start past the first page wait until the test lets them through.
  const held: Route[] = [];
  let holding = true;
  const pagesRead: number[] = [];
  await page.route(
    (url) => url.pathname === `/api/transcripts/${id}` && url.searchParams.has("after"),
    async (route) => {
      const after = Number(new URL(route.request().url()).searchParams.get("after"));
      if (after >= all.length) return route.continue(); // the page's catch-up read
      pagesRead.push(after);
      if (after > 0 && holding) held.push(route);
      else await route.continue();
    },
  );

  await page.goto(`/t/${id}`);
  await expect(page.getByTestId("older-records").first()).toBeVisible();
  const bar = page.getByTestId("replay-bar");
  // At rest, the whole length once the server has told the runs: no "~" (nor the 0:00.0 of the
  // render before the tail is planned).
  const duration = bar.getByTestId("replay-duration");
  await expect(duration).toHaveText(/^[1-9]\d*:\d\d\.\d$/);
  const resting = await duration.textContent();
  await bar.getByRole("button", { name: "Play" }).click();
  await expect(bar.getByRole("button", { name: "Exit replay" })).toBeVisible();
  await expect(page.getByTestId("timeline").getByText("message number 0")).toBeVisible();
  // Playing from the first page while the next one is still held: nothing of the end shows.
  await expect.poll(() => held.length).toBeGreaterThan(0);
  expect(pagesRead[0]).toBe(0);
  // The whole length is known from the first page (the server tells the runs): no "~".
  await expect(duration).not.toHaveText(/^~/);
  const total = await duration.textContent();
  expect(total).toBe(resting);
  await expect(page.getByTestId("timeline").getByText(`message number ${RUNS - 1}`)).toHaveCount(0);

  // The end: not read yet, so it loads (and says so) before anything of it shows.
  await bar.getByTestId("replay-scrubber").press("End");
  await expect(bar.getByTestId("replay-loading")).toHaveText("Loading…");
  expect((await shownIds(page)).includes(`u${RUNS - 1}`)).toBe(false);
  holding = false;
  for (const route of held.splice(0)) await route.continue();
  await expect(page.getByTestId("timeline").getByText(`message number ${RUNS - 1}`)).toBeVisible();
  await expect(bar.getByTestId("replay-loading")).toHaveText("");
  // The length it showed from the first page is the one it ends with.
  await expect(duration).toHaveText(total ?? "");
  // Everything recorded, in order, nothing else: the same events as the transcript.
  expect(await shownIds(page)).toEqual(recorded);
  // Read a page at a time from the start, each page once.
  expect(new Set(pagesRead).size).toBe(pagesRead.length);
});
