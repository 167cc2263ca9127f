import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planReplay, ReplayPlanner } from "@/components/replay/replay-plan";
import type { StoredRecord } from "../store/store";
import { transcriptRunsOf } from "../store/transcript-runs";
import { parallelCalls } from "./fixtures.testing";
import { exactDuration, runSpanOf } from "./run-spans";
import {
  type ArbitraryRecord,
  arbitraryPageSizes,
  arbitraryTranscript,
  pagesOf,
} from "./transcript-arbitrary.testing";

/** As the store keeps them: every record has a run id ("imported" when the file had none). */
const stored = (records: readonly ArbitraryRecord[]): StoredRecord[] =>
  records.map((record) => ({ ...record, runId: record.runId ?? "imported" }));

const spansOf = (records: readonly StoredRecord[]) => transcriptRunsOf(records).map(runSpanOf);

describe("exactDuration", () => {
  it("is the planned replay's length for runs one after another, from their spans alone", () => {
    let exact = 0;
    fc.assert(
      fc.property(
        arbitraryTranscript({ parallel: false, long: false, maxRecords: 600 }),
        (generated) => {
          const records = stored(generated);
          const duration = exactDuration(spansOf(records));
          if (duration === undefined) return;
          exact++;
          expect(duration).toBe(planReplay("xml", records).duration);
        },
      ),
      { numRuns: 200 },
    );
    // Runs one after another are timed exactly but for a run coming back without a message.
    expect(exact).toBeGreaterThan(100);
  }, 60_000);

  it("is the length the paged planner ends with, from any page on which it is not mid-run", () => {
    fc.assert(
      fc.property(
        arbitraryTranscript({ parallel: true, long: false, maxRecords: 600 }),
        arbitraryPageSizes(1, 80),
        (generated, sizes) => {
          const records = stored(generated);
          const spans = spansOf(records);
          const planner = new ReplayPlanner("xml", 50);
          const told: number[] = [];
          const pages = pagesOf(records, sizes);
          pages.forEach((page, index) => {
            planner.add(page, index === pages.length - 1);
            if (planner.midRun || planner.complete) return;
            const at = { seq: planner.lastSeq, at: planner.duration };
            const duration = exactDuration(spans, at);
            if (duration !== undefined) told.push(duration);
          });
          for (const duration of told) expect(duration).toBe(planner.duration);
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);

  it("leaves calls made at the same time to their records", () => {
    const calls = parallelCalls({
      epoch: 1_700_000_000_000,
      names: ["0", "1"],
      content: "two at once",
      words: 5,
      word: (_name, index) => `w${index} `,
      tokens: { input: 1, output: 5 },
    }).map((record, index) => ({ ...record, seq: index + 1 }));
    const spans = spansOf(calls);
    expect(exactDuration(spans)).toBeUndefined();
    // Once they are planned, what follows them is known.
    const plan = planReplay("xml", calls);
    expect(exactDuration(spans, { seq: calls.length, at: plan.duration })).toBe(plan.duration);
    // Planned up to inside a run: its length is the records'.
    expect(spans[0]?.lastSeq).toBeGreaterThan(1);
    expect(exactDuration(spans.slice(0, 1), { seq: 1, at: 10 })).toBeUndefined();
  });
});
