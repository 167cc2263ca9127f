import { beforeAll, describe, expect, it } from "vitest";
import { createParser, type TranscriptRecord } from "@/lib/protocol";
import { recordRun } from "@/lib/replay/testing";
import { createMemoryStore, type StoredRecord } from "@/lib/store";
import { STALLED_AFTER } from "./plan-cuts";
import { planReplay, ReplayPlanner } from "./replay-plan";

/**
 * The paged planner on transcripts where cutting at the wrong place would change the plan:
 * calls made at the same time, a long run split into parts, runs without (or with one reused)
 * stored run id.
 */

const EPOCH = 1_700_000_000_000;
type Stored = TranscriptRecord & { runId?: string; seq?: number };

const numbered = (records: readonly Stored[]) =>
  records.map((record, index) => ({ ...record, seq: index + 1 }));
const request = (runId: string, turn: number, t: number): Stored => ({
  kind: "request",
  runId,
  turn,
  t,
  provider: "openai",
  model: "m",
  messages: [],
  settings: {},
});
const chunk = (runId: string, turn: number, t: number, text = "a "): Stored => ({
  kind: "chunk",
  runId,
  turn,
  t,
  text,
});
const metric = (runId: string, turn: number, timestamp: number, durationMs: number): Stored => ({
  kind: "event",
  runId,
  event: {
    type: "metric",
    id: `m-${runId}-${turn}`,
    timestamp,
    turn,
    step: { input: 1, output: 1, durationMs, ttftMs: 1 },
    total: { input: 1, output: 1, durationMs },
  },
});
const user = (runId: string, timestamp: number): Stored => ({
  kind: "event",
  runId,
  event: { type: "user", id: `u-${runId}`, timestamp, content: "go" },
});

/** Plans `records` `size` at a time, as a replay reading pages from the start does. */
function paged(records: readonly Stored[], size: number, splitRunsOver?: number): ReplayPlanner {
  const planner = new ReplayPlanner("xml", splitRunsOver);
  for (let at = 0; at < records.length; at += size) {
    const end = Math.min(records.length, at + size);
    planner.add(records.slice(at, end), end === records.length);
  }
  return planner;
}

/**
 * Captured calls `runIds`, each opening with a user message and streaming `pieces`: the first
 * starts and streams its first piece, then the others start, stream `quietFirst` pieces while
 * the first is silent, and then all take turns.
 */
function sideBySide(runIds: string[], pieces: string[], quietFirst = 0): Stored[] {
  const out: Stored[] = [];
  const calls = runIds.map((runId, turn) => ({
    runId,
    turn,
    start: EPOCH + turn * 10,
    next: 0,
    parser: createParser("xml", { turn, idPrefix: `t${turn}-`, clock: () => EPOCH }),
  }));
  const stream = (call: (typeof calls)[number]) => {
    const t = 20 + call.next * 100;
    const text = pieces[call.next++] as string;
    out.push(chunk(call.runId, call.turn, t, text));
    for (const event of call.parser.feed(text))
      out.push({
        kind: "event",
        runId: call.runId,
        event: { ...event, timestamp: call.start + t },
      });
  };
  const [first, ...others] = calls as [(typeof calls)[number], ...typeof calls];
  out.push(user(first.runId, first.start), request(first.runId, first.turn, 0));
  stream(first);
  for (const call of others)
    out.push(user(call.runId, call.start), request(call.runId, call.turn, 0));
  for (let index = 0; index < quietFirst; index++) for (const call of others) stream(call);
  while (calls.some((call) => call.next < pieces.length))
    for (const call of calls) if (call.next < pieces.length) stream(call);
  for (const call of calls) {
    const end = call.start + 20 + pieces.length * 100;
    for (const event of call.parser.end())
      out.push({ kind: "event", runId: call.runId, event: { ...event, timestamp: end } });
    out.push(metric(call.runId, call.turn, end, end - call.start));
  }
  return numbered(out);
}

describe("ReplayPlanner and calls made at the same time", () => {
  it("does not cut a call mid-turn at the user message of a call made while it streamed", () => {
    const pieces = ["<think>", "a b c", " d e", "</think>", "<respond>ok", "</respond>"];
    const records = sideBySide(["A", "B"], pieces);
    const whole = planReplay("xml", records);
    expect(whole.diffs).toEqual([]);
    for (const size of [1, 4, 9]) {
      const planner = paged(records, size);
      expect(planner.diffs).toEqual([]);
      expect(planner.entries).toEqual(whole.entries);
    }
  });

  it("waits for a call silent mid-turn while another streams more than 200 records", () => {
    const many = Array.from({ length: 160 }, (_, index) => `w${index} `);
    const pieces = ["<think>", ...many, "</think>"];
    // A streams "<think>", then B streams 150 pieces (300 records) before A goes on.
    const records = sideBySide(["A", "B"], pieces, 150);
    const whole = planReplay("xml", records);
    expect(whole.diffs).toEqual([]);
    const planner = paged(records, 50);
    expect(planner.diffs).toEqual([]);
    expect(planner.entries).toEqual(whole.entries);
  });

  it("plans on past a run that never ends its turn, once it was not heard from for a while", () => {
    // A run the process crashed in (chunks, no metric), then runs that end as they should.
    const records: Stored[] = [user("crashed", EPOCH), request("crashed", 0, 0)];
    records.push(chunk("crashed", 0, 10, "<respond>cut"));
    for (let run = 1; records.length < STALLED_AFTER * 2; run++) {
      const runId = `r${run}`;
      records.push(user(runId, EPOCH + run * 1000), request(runId, run, 0));
      records.push(chunk(runId, run, 10, "<respond>ok</respond>"));
      records.push(metric(runId, run, EPOCH + run * 1000 + 20, 20));
    }
    const all = numbered(records);
    const planner = new ReplayPlanner("xml");
    planner.add(all.slice(0, STALLED_AFTER - 10), false);
    expect(planner.records).toBe(0); // it may still go on
    planner.add(all.slice(STALLED_AFTER - 10, STALLED_AFTER + 10), false);
    expect(planner.records).toBeGreaterThan(STALLED_AFTER - 10); // held back no longer
    planner.add(all.slice(STALLED_AFTER + 10), true);
    expect(planner.entries).toEqual(planReplay("xml", all).entries);
  });

  it("does not take a run between turns (its tool running) for ended at its metric", () => {
    const respond = "<respond>ok</respond>";
    const called = (runId: string, turn: number, timestamp: number): Stored[] => [
      {
        kind: "event",
        runId,
        event: {
          type: "call",
          id: `c-${runId}-${turn}`,
          timestamp,
          turn,
          span: { start: 0, end: 0 },
          call: { id: `call-${runId}-${turn}`, name: "list", args: {} },
        },
      },
    ];
    const result = (runId: string, turn: number, timestamp: number): Stored => ({
      kind: "event",
      runId,
      event: {
        type: "result",
        id: `r-${runId}-${turn}`,
        timestamp,
        callId: `call-${runId}-${turn}`,
        payload: {
          tool: "list",
          status: "success",
          content: "[]",
          outcome: "Listed",
          durationMs: 10,
        },
      },
    });
    const records = numbered([
      user("A", EPOCH),
      request("A", 0, 0),
      chunk("A", 0, 100, respond),
      ...called("A", 0, EPOCH + 100),
      metric("A", 0, EPOCH + 110, 110),
      // B starts while A's tool runs; A's next turn comes after.
      user("B", EPOCH + 200),
      request("B", 1, 0),
      chunk("B", 1, 50, respond),
      result("A", 0, EPOCH + 400),
      request("A", 2, 410),
      chunk("A", 2, 500, respond),
      metric("A", 2, EPOCH + 510, 100),
      chunk("B", 1, 400, respond),
      metric("B", 1, EPOCH + 600, 400),
    ]);
    const whole = planReplay("xml", records);
    for (const size of [1, 2, 3, 5, 6, 7, 8])
      expect(paged(records, size).entries).toEqual(whole.entries);
  });

  it("times a call joining a long run planned in parts as the whole plan does", () => {
    const records: Stored[] = [user("A", EPOCH)];
    for (let turn = 0; turn < 20; turn++) {
      const t = turn * 100;
      records.push(request("A", turn, t), chunk("A", turn, t + 10), chunk("A", turn, t + 50));
      records.push(metric("A", turn, EPOCH + t + 60, 60));
    }
    // A's turn 20 streams 2000–2600; B, a call made meanwhile, starts at 2100 for 600 ms.
    records.push(request("A", 20, 2000), chunk("A", 20, 2010));
    records.push(request("B", 21, 0), chunk("B", 21, 10));
    records.push(chunk("A", 20, 2300), chunk("B", 21, 300));
    records.push(chunk("A", 20, 2600), metric("A", 20, EPOCH + 2600, 600));
    records.push(chunk("B", 21, 600), metric("B", 21, EPOCH + 2100 + 600, 600));
    const all = numbered(records);
    const whole = planReplay("xml", all);
    const planner = paged(all, 10, 20);
    expect(planner.entries).toEqual(whole.entries);
    const b = whole.entries.filter((entry) => (entry.record as Stored).runId === "B");
    expect(b[0]?.at).toBe(2100); // at its start, 2,100 ms after A's
  });
});

describe("ReplayPlanner and imported run ids", () => {
  let conversation: StoredRecord[];

  beforeAll(async () => {
    const store = createMemoryStore();
    const first = await recordRun(
      { message: "list the files and read one", dialect: "xml" },
      store,
    );
    const transcriptId = first.transcript.meta.id;
    const last = await recordRun(
      { message: "search for average", dialect: "xml", transcriptId },
      store,
    );
    conversation = last.transcript.records;
  });

  // An import may leave `runId` out, or give every run the same one.
  const variants: Record<string, (records: StoredRecord[]) => Stored[]> = {
    "without run ids": (records) => records.map(({ runId: _runId, ...rest }) => rest),
    "with one run id for every run": (records) =>
      records.map((record) => ({ ...record, runId: "one" })),
  };
  for (const [name, variant] of Object.entries(variants))
    it(`plans a long run in parts with the times of the whole plan, ${name}`, () => {
      const records = variant(conversation);
      const whole = planReplay("xml", records);
      for (const size of [7, 50]) expect(paged(records, size, 5).entries).toEqual(whole.entries);
    });
});
