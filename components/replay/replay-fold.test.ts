import { beforeAll, describe, expect, it, vi } from "vitest";
import { RunLog } from "@/lib/client/run-log";
import type { TranscriptRecord } from "@/lib/protocol";
import type { ReplayFrame } from "@/lib/replay/cursor";
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

/** A rebuild frame as the cursor makes it: `records` built only if read (here: never). */
function resetFrame(count: number): ReplayFrame & { asked: number[] } {
  const asked: number[] = [];
  return {
    reset: true,
    get records(): TranscriptRecord[] {
      throw new Error("the whole prefix was built");
    },
    count,
    recordsFrom(start) {
      asked.push(start);
      return planned.slice(start, count);
    },
    asked,
  };
}

describe("ReplayFold", () => {
  it("gives the log a fold from the first record gives, whatever the frames", () => {
    expect(planned.length).toBeGreaterThan(60);
    const fold = new ReplayFold("t");
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
  });

  it("gives the same log as a fold from the first record after random seeks and steps", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 40; trial++) {
      const fold = new ReplayFold("t");
      fold.begin();
      let at = 0;
      for (let step = 0; step < 12; step++) {
        const place = Math.floor(random() * (planned.length + 1));
        const log =
          place >= at && random() < 0.7
            ? fold.apply({ reset: false, records: planned.slice(at, place) })
            : fold.apply(
                random() < 0.5
                  ? resetFrame(place)
                  : { reset: true, records: planned.slice(0, place) },
              );
        at = place;
        expect(shown(log)).toEqual(shown(foldAll(planned.slice(0, place))));
      }
    }
  });

  it("rebuilds a seek back as a copy: no record folded again, none read before the target", () => {
    const fold = new ReplayFold("t");
    fold.begin();
    fold.apply({ reset: false, records: planned });
    const applied = vi.spyOn(RunLog.prototype, "apply");
    const back = planned.length - 15;
    const frame = resetFrame(back);
    const log = fold.apply(frame);
    expect(applied.mock.calls.length).toBe(0);
    applied.mockRestore();
    expect(frame.asked).toEqual([]);
    expect(shown(log)).toEqual(shown(foldAll(planned.slice(0, back))));
    // Past the furthest record folded, only the records after it are read.
    const ahead = new ReplayFold("t");
    ahead.begin();
    ahead.apply({ reset: false, records: planned.slice(0, 30) });
    const further = resetFrame(50);
    expect(shown(ahead.apply(further))).toEqual(shown(foldAll(planned.slice(0, 50))));
    expect(further.asked).toEqual([30]);
  });

  it("never changes a log it handed out once a frame rebuilt: folding on after a seek back", () => {
    const fold = new ReplayFold("t");
    fold.begin();
    const first = fold.apply({ reset: false, records: planned.slice(0, 40) });
    const before = structuredClone(shown(first));
    const back = fold.apply({ reset: true, records: planned.slice(0, 20) });
    expect(back).not.toBe(first);
    fold.apply({ reset: false, records: planned.slice(20, 50) });
    expect(shown(first)).toEqual(before);
    const again = fold.apply({ reset: true, records: planned.slice(0, 25) });
    expect(shown(again)).toEqual(shown(foldAll(planned.slice(0, 25))));
    expect(shown(back)).toEqual(shown(foldAll(planned.slice(0, 50))));
  });
});
