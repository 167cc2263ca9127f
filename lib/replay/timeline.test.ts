import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { buildTimeline } from "./timeline";

const EPOCH = 1_700_000_000_000;
const event = (value: ProtocolEvent): TranscriptRecord => ({ kind: "event", event: value });
const user = (id: string, at: number) =>
  event({ type: "user", id, timestamp: EPOCH + at, content: id });
const result = (id: string, timestamp: number) =>
  event({
    type: "result",
    id,
    timestamp,
    callId: "c",
    payload: { tool: "t", status: "success", content: "", outcome: "", durationMs: 0 },
  });
const chunk = (t: number): TranscriptRecord => ({ kind: "chunk", turn: 0, t, text: "x" });

const times = (records: TranscriptRecord[], gap?: number) =>
  buildTimeline(records, gap === undefined ? {} : { runGapMs: gap }).map((entry) => entry.at);

describe("buildTimeline", () => {
  it("puts chunks at their t and events at their own time, held between their neighbours", () => {
    expect(
      times([
        user("u", 0),
        chunk(5),
        chunk(20),
        result("late-tool", EPOCH + 2000), // a slow tool: 2 s after the run started
        chunk(2500),
        result("skewed", EPOCH + 9999), // after the next chunk by its clock: held at the chunk
        chunk(3000),
        result("no-clock", 0), // no timestamp: the previous record's time
      ]),
    ).toEqual([0, 5, 20, 2000, 2500, 3000, 3000, 3000]);
  });

  it("never goes back in time", () => {
    expect(times([user("u", 0), chunk(50), result("early", EPOCH + 10), chunk(40)])).toEqual([
      0, 50, 50, 50,
    ]);
  });

  it("runs follow each other after the gap, however long the user waited", () => {
    const records = [
      user("u1", 0),
      chunk(100),
      user("u2", 3_600_000),
      chunk(10),
      result("r", EPOCH + 3_600_020),
    ];
    expect(times(records)).toEqual([0, 100, 600, 610, 620]);
    expect(times(records, 0)).toEqual([0, 100, 100, 110, 120]);
  });

  it("a sub-agent's task does not start a run", () => {
    const records = [
      user("u1", 0),
      chunk(10),
      event({ type: "user", id: "sub", timestamp: EPOCH + 15, content: "task", parent: "c1" }),
      chunk(20),
    ];
    expect(times(records)).toEqual([0, 10, 15, 20]);
  });

  it("a run resumed without a message starts where its stored run id changes", () => {
    const records = [
      { ...user("u1", 0), runId: "r1" },
      { ...chunk(100), runId: "r1" },
      { ...result("x", EPOCH + 150), runId: "r1" },
      { ...chunk(5), runId: "r2" },
      result("reparsed-without-run-id", 0),
      { ...chunk(30), runId: "r2" },
    ];
    expect(times(records)).toEqual([0, 100, 150, 655, 655, 680]);
  });

  it("times runs planned apart as when planned together (`after`)", () => {
    const first = [user("u1", 0), chunk(100), result("r1", EPOCH + 150)];
    const second = [user("u2", 3_600_000), chunk(10), result("r2", EPOCH + 3_600_040), chunk(60)];
    const together = times([...first, ...second]);
    const apart = buildTimeline(first);
    const last = apart.at(-1)?.at ?? 0;
    const after = buildTimeline(second, { after: last }).map((entry) => entry.at);
    expect([...apart.map((entry) => entry.at), ...after]).toEqual(together);
    // A run resumed without a message begins where it is added, too.
    const resumed = [chunk(5), chunk(20)];
    expect(buildTimeline(resumed, { after: 100 }).map((entry) => entry.at)).toEqual([605, 620]);
  });

  describe("runs that ran at the same time (captured parallel calls, records interleaved)", () => {
    const request = (turn: number): TranscriptRecord => ({
      kind: "request",
      turn,
      t: 0,
      provider: "openai",
      model: "m",
      messages: [],
      settings: {},
    });
    const turnChunk = (turn: number, t: number): TranscriptRecord => ({
      kind: "chunk",
      turn,
      t,
      text: "x",
    });
    const metric = (turn: number, at: number, durationMs: number) =>
      event({
        type: "metric",
        id: `m${turn}`,
        timestamp: EPOCH + at,
        turn,
        step: { input: 1, output: 1, durationMs, ttftMs: 1 },
        total: { input: 1, output: 1, durationMs },
      });
    const on = (runId: string, record: TranscriptRecord) => ({ ...record, runId });
    /** Call a starts with the user's message at 0; b 20 ms later, c 40 ms later; 6 s each. */
    const parallel = () => [
      on("a", user("u", 0)),
      on("a", request(0)),
      on("b", request(1)),
      on("c", request(2)),
      on("a", turnChunk(0, 100)),
      on("b", turnChunk(1, 100)),
      on("c", turnChunk(2, 100)),
      on("a", turnChunk(0, 6000)),
      on("b", turnChunk(1, 6000)),
      on("c", turnChunk(2, 6000)),
      on("a", metric(0, 6010, 6010)),
      on("b", metric(1, 6030, 6010)),
      on("c", metric(2, 6050, 6010)),
    ];

    it("places each run at its recorded start, with no pause between them", () => {
      expect(times(parallel())).toEqual([
        0, 0, 20, 40, 100, 120, 140, 6000, 6020, 6040, 6040, 6040, 6050,
      ]);
    });

    it("pauses only before a run that did not overlap the ones before", () => {
      const after = [on("d", user("u2", 60_000)), on("d", turnChunk(3, 10))];
      expect(times([...parallel(), ...after]).slice(-2)).toEqual([6550, 6560]);
    });

    it("a skewed clock cannot put a run after the next record of the runs before it", () => {
      const skewed = parallel().map((record) =>
        record.runId === "c" && record.kind === "event"
          ? { ...record, event: { ...record.event, timestamp: EPOCH + 3_600_000 } }
          : record,
      );
      const timed = times(skewed);
      // c's first record comes before a's chunk at 100: c starts no later than that.
      expect(timed[3]).toBeLessThanOrEqual(100);
      expect(timed.at(-1)).toBeLessThan(10_000);
    });

    it("a skewed clock cannot stretch the group when only events of the runs before follow", () => {
      const hour = 3_600_000;
      // a streams 0–900 ms; b starts 100 ms after it, by a clock an hour ahead; after b's
      // start, a's only record is its metric (an event), the first thing that bounds b.
      const records = [
        on("a", request(0)),
        on("a", turnChunk(0, 50)),
        on("a", turnChunk(0, 900)),
        on("b", request(1)),
        on("b", turnChunk(1, 40)),
        on("a", metric(0, 1000, 1000)),
        on("b", turnChunk(1, 800)),
        on("b", metric(1, 100 + 800 + hour, 800)),
      ];
      // b starts no later than a's metric (at 1000), and lasts its 800 ms.
      expect(times(records)).toEqual([0, 50, 900, 1000, 1040, 1040, 1800, 1800]);
      // With their user messages too (b's an hour ahead), and nothing of a placed after b
      // but events: b starts where it is reached, not an hour in.
      const messages = [
        on("a", user("ua", 0)),
        on("a", request(0)),
        on("a", turnChunk(0, 50)),
        on("b", user("ub", 100 + hour)),
        on("b", request(1)),
        on("b", turnChunk(1, 40)),
        on("a", metric(0, 1000, 1000)),
        on("b", turnChunk(1, 800)),
        on("b", metric(1, 100 + 800 + hour, 800)),
      ];
      expect(times(messages).at(-1)).toBeLessThan(2000);
    });

    it("times a group planned after others as when planned together (`after`)", () => {
      const first = [user("u0", -60_000), chunk(100)];
      const together = times([...first, ...parallel()]);
      const apart = buildTimeline(first).map((entry) => entry.at);
      const rest = buildTimeline(parallel(), { after: apart.at(-1) ?? 0 }).map((e) => e.at);
      expect([...apart, ...rest]).toEqual(together);
    });
  });
});
