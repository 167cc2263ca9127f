import { beforeAll, describe, expect, it, vi } from "vitest";
import { RunLog } from "@/lib/client/run-log";
import type { TranscriptRecord } from "@/lib/protocol";
import { recordRun } from "@/lib/replay/testing";
import { createMemoryStore } from "@/lib/store";
import { ReplayFold } from "./replay-fold";
import { planReplay } from "./replay-plan";

/** The replayed records of a real conversation of two runs (demo model), in plan order. */
let planned: TranscriptRecord[];

beforeAll(async () => {
  const store = createMemoryStore();
  const first = await recordRun({ message: "list the files and read one", dialect: "xml" }, store);
  const transcriptId = first.transcript.meta.id;
  const last = await recordRun(
    { message: "search for average", dialect: "xml", transcriptId },
    store,
  );
  planned = planReplay("xml", last.transcript.records).entries.map((entry) => entry.record);
});

function foldAll(records: readonly TranscriptRecord[]): RunLog {
  const log = new RunLog();
  log.transcriptId = "t";
  for (const record of records) log.apply(record);
  return log;
}

/** What the page reads from a log. */
function shown(log: RunLog) {
  return {
    version: log.version,
    events: log.events,
    chunks: log.chunks,
    turns: [...log.turns.values()],
    results: log.events.flatMap((event) =>
      event.type === "call" ? [log.resultOf(event.call.id) ?? null] : [],
    ),
  };
}

describe("ReplayFold", () => {
  it("gives the log a fold from the first record gives, whatever the frames", () => {
    expect(planned.length).toBeGreaterThan(60);
    const fold = new ReplayFold("t", 7, 4);
    fold.begin();
    // Forward in steps, back, forward again, back to the start, and to the end.
    const places = [5, 23, 40, 12, 31, 31, 3, 0, planned.length, 17, planned.length - 1];
    let at = 0;
    for (const place of places) {
      const log =
        place >= at
          ? fold.apply({ reset: false, records: planned.slice(at, place) })
          : fold.apply({ reset: true, records: planned.slice(0, place) });
      at = place;
      expect(shown(log)).toEqual(shown(foldAll(planned.slice(0, place))));
    }
    // Thinned to at most 4, at doubled spacings.
    expect(fold.kept.length).toBeLessThanOrEqual(4);
    expect(fold.kept.every((count) => count % 7 === 0)).toBe(true);
  });

  it("folds a seek back from the nearest checkpoint, not from the first record", () => {
    const fold = new ReplayFold("t", 10);
    fold.begin();
    fold.apply({ reset: false, records: planned });
    const applied = vi.spyOn(RunLog.prototype, "apply");
    const back = planned.length - 15;
    const log = fold.apply({ reset: true, records: planned.slice(0, back) });
    expect(applied.mock.calls.length).toBeLessThan(10);
    applied.mockRestore();
    expect(shown(log)).toEqual(shown(foldAll(planned.slice(0, back))));
  });

  it("never hands out a checkpoint: folding on after a seek back leaves it as it was", () => {
    const fold = new ReplayFold("t", 10);
    fold.begin();
    fold.apply({ reset: false, records: planned.slice(0, 30) });
    fold.apply({ reset: true, records: planned.slice(0, 20) });
    fold.apply({ reset: false, records: planned.slice(20, 50) });
    const again = fold.apply({ reset: true, records: planned.slice(0, 25) });
    expect(shown(again)).toEqual(shown(foldAll(planned.slice(0, 25))));
  });
});
