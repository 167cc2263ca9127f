import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { arbitraryTranscript } from "@/lib/replay/transcript-arbitrary.testing";
import { HeldRecords } from "./plan-cuts";
import { lastRunStart, lastTurnStart } from "./plan-oracle.testing";

/**
 * `HeldRecords` keeps, as records come, what the planner used to work out again from every
 * record it held at each page: after every record, and after every cut, it answers as that did.
 */
describe("HeldRecords", () => {
  it("finds the cuts the rescan of every record held found, record by record, cut after cut", () => {
    fc.assert(
      fc.property(
        arbitraryTranscript({ parallel: true, long: false, maxRecords: 300 }),
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(1, 5, 40),
        (records, cutEvery, over) => {
          const held = new HeldRecords();
          let since = 0;
          let cuts = 0;
          for (const record of records) {
            held.add(record);
            const all = held.records;
            const runStart = lastRunStart(all);
            expect(held.lastRunStart()).toBe(runStart);
            expect(held.lastTurnStart(runStart, over)).toBe(lastTurnStart(all, runStart, over));
            expect(held.lastTurnStart(0, over)).toBe(lastTurnStart(all, 0, over));
            // Now and then the planner cuts where it was told, and goes on with the rest.
            if (++since >= (cutEvery[cuts % cutEvery.length] as number) && runStart > 0) {
              const before = all.slice();
              const taken = held.takeBefore(runStart);
              expect(taken.length).toBe(runStart);
              expect(taken.every((record, index) => record === before[index])).toBe(true);
              expect(
                held.records.every((record, index) => record === before[runStart + index]),
              ).toBe(true);
              since = 0;
              cuts++;
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);
});
