import { expect, type Route, test } from "@playwright/test";
import type { TranscriptRecord } from "../lib/protocol";
import { streamedTurn } from "../lib/replay/fixtures.testing";
import { importRecords } from "./import-records";

/**
 * One run longer than a replay page (an agent loop of many turns): Play starts with its first
 * turns while the rest of the run is still being read, instead of reading all of it first.
 */
const TURNS = 150;
const EPOCH = 1_700_000_000_000;

function longRun(): (TranscriptRecord & { runId: string })[] {
  const runId = "one-long-run";
  const out: (TranscriptRecord & { runId: string })[] = [
    {
      kind: "event",
      runId,
      event: { type: "user", id: "u", timestamp: EPOCH, content: "go on for a while" },
    },
  ];
  for (let turn = 0; turn < TURNS; turn++) {
    const start = turn * 1000;
    const text = `<think>Step ${turn} of the long run.</think>\n`;
    out.push({
      kind: "request",
      runId,
      turn,
      t: start,
      provider: "demo",
      model: "demo",
      messages: [],
      settings: {},
    });
    out.push(
      ...streamedTurn({
        runId,
        turn,
        text,
        size: 4,
        t: start,
        epoch: EPOCH + start,
        metricAt: EPOCH + start + 100,
        durationMs: 100,
      }),
    );
  }
  return out;
}

test("replay of a run longer than a page starts from its first page", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const all = longRun();
  expect(all.length).toBeGreaterThan(2500);
  const id = await importRecords(page, { id: "long-run", title: "One long run" }, all);

  // Reads from the start past the first page wait until the test lets them through.
  const held: Route[] = [];
  let holding = true;
  await page.route(
    (url) => url.pathname === `/api/transcripts/${id}` && url.searchParams.has("after"),
    async (route) => {
      const after = Number(new URL(route.request().url()).searchParams.get("after"));
      if (after >= all.length) return route.continue();
      if (after > 0 && holding) held.push(route);
      else await route.continue();
    },
  );

  await page.goto(`/t/${id}`);
  const bar = page.getByTestId("replay-bar");
  await bar.getByRole("button", { name: "Play", exact: true }).click();
  // The first turns play while the rest of the run is still held back.
  await expect(page.getByTestId("timeline").getByText("Step 0 of the long run.")).toBeVisible();
  await expect.poll(() => held.length).toBeGreaterThan(0);
  await expect(
    page.getByTestId("timeline").getByText(`Step ${TURNS - 1} of the long run.`),
  ).toHaveCount(0);
  holding = false;
  for (const route of held.splice(0)) await route.continue();
  await bar.getByTestId("replay-scrubber").press("End");
  await expect(
    page.getByTestId("timeline").getByText(`Step ${TURNS - 1} of the long run.`),
  ).toBeVisible();
});
