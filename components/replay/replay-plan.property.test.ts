import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ArbitraryRecord,
  arbitraryPageSizes,
  arbitraryTranscript,
  pagesOf,
} from "@/lib/replay/transcript-arbitrary.testing";
import { OracleReplayPlanner } from "./plan-oracle.testing";
import { ReplayPlanner } from "./replay-plan";

/**
 * The planner keeps what the records it holds tell across pages (linear in the records), and
 * its plans are byte-identical to those of the planner that worked everything out again at
 * every page (`plan-oracle.testing.ts`), page by page, whatever the transcript and the pages.
 */
describe("ReplayPlanner against the planner that rescanned what it held", () => {
  it("plans every page the same, to the byte (short transcripts, small pages)", () => {
    fc.assert(
      fc.property(
        arbitraryTranscript({ parallel: true, long: false, maxRecords: 400 }),
        arbitraryPageSizes(1, 40),
        fc.constantFrom(1, 5, 30, 1000),
        samePlans,
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it("plans every page the same, to the byte (long runs, stalled ones, the app's pages)", () => {
    fc.assert(
      fc.property(
        arbitraryTranscript({ parallel: true, long: true, maxRecords: 6000 }),
        arbitraryPageSizes(200, 1500),
        fc.constantFrom(5, 300, 1000),
        samePlans,
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});

function samePlans(records: ArbitraryRecord[], sizes: number[], splitRunsOver: number): void {
  const planner = new ReplayPlanner("xml", splitRunsOver);
  const oracle = new OracleReplayPlanner("xml", splitRunsOver);
  const pages = pagesOf(records, sizes);
  pages.forEach((page, index) => {
    const last = index === pages.length - 1;
    const planned = planner.add(page, last);
    expect(JSON.stringify(planned)).toBe(JSON.stringify(oracle.add(page, last)));
    expect([planner.records, planner.lastSeq, planner.complete]).toEqual([
      oracle.records,
      oracle.lastSeq,
      oracle.complete,
    ]);
  });
  expect(JSON.stringify(planner.entries)).toBe(JSON.stringify(oracle.entries));
  expect(JSON.stringify(planner.diffs)).toBe(JSON.stringify(oracle.diffs));
  expect(planner.duration).toBe(oracle.duration);
}
