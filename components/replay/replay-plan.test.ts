import { beforeAll, describe, expect, it } from "vitest";
import type { TranscriptRecord } from "@/lib/protocol";
import { parallelCalls as threeCalls } from "@/lib/replay/fixtures.testing";
import { recordRun } from "@/lib/replay/testing";
import { createMemoryStore, type StoredRecord } from "@/lib/store";
import { estimatedDuration, planReplay, ReplayPlanner } from "./replay-plan";

/** A real conversation of three runs (demo model), as the store holds it. */
let conversation: StoredRecord[];

beforeAll(async () => {
  const store = createMemoryStore();
  const first = await recordRun({ message: "list the files and read one", dialect: "xml" }, store);
  const transcriptId = first.transcript.meta.id;
  await recordRun({ message: "search for average", dialect: "xml", transcriptId }, store);
  const last = await recordRun(
    { message: "what is 12 * (3 + 4)", dialect: "xml", transcriptId },
    store,
  );
  conversation = last.transcript.records;
});

const EPOCH = 1_700_000_000_000;

/**
 * Three calls an agent made at the same time (captured: a run each, records interleaved as they
 * arrived), each streaming 40 chunks 150 ms apart (6 s), then one call after them.
 */
function parallelCalls(): StoredRecord[] {
  const out: (TranscriptRecord & { runId: string })[] = threeCalls({
    epoch: EPOCH,
    names: ["0", "1", "2"],
    content: "three at once",
    words: 40,
    word: (_name, index) => `word${index} `,
    tokens: { input: 1, output: 40 },
  });
  // The agent's next call, once the three answered.
  out.push({
    kind: "request",
    runId: "call-3",
    turn: 3,
    t: 0,
    provider: "openai",
    model: "m",
    messages: [],
    settings: {},
  });
  out.push({ kind: "chunk", runId: "call-3", turn: 3, t: 50, text: "done" });
  return out.map((record, index) => ({ ...record, seq: index + 1 }));
}

describe("ReplayPlanner", () => {
  it("planned a page at a time, gives the plan of the whole, whatever the page size", () => {
    const whole = planReplay("xml", conversation);
    expect(new Set(conversation.map((record) => record.runId)).size).toBe(3);
    for (const size of [1, 7, 50, conversation.length]) {
      const planner = new ReplayPlanner("xml");
      for (let at = 0; at < conversation.length; at += size) {
        const end = Math.min(conversation.length, at + size);
        planner.add(conversation.slice(at, end), end === conversation.length);
      }
      expect(planner.complete).toBe(true);
      expect(planner.entries).toEqual(whole.entries);
      expect(planner.diffs).toEqual(whole.diffs);
      expect(planner.duration).toBe(whole.duration);
    }
  });

  it("plans a run longer than `splitRunsOver` a few whole turns at a time, as when whole", () => {
    const whole = planReplay("xml", conversation);
    const firstRun = conversation.filter((record) => record.runId === conversation[0]?.runId);
    const turns = new Set(firstRun.map((record) => (record.kind === "event" ? -1 : record.turn)));
    expect(turns.size).toBeGreaterThan(2);
    for (const size of [1, 7, 50]) {
      const planner = new ReplayPlanner("xml", 5);
      let before = 0;
      for (let at = 0; at < conversation.length; at += size) {
        const end = Math.min(conversation.length, at + size);
        planner.add(conversation.slice(at, end), end === conversation.length);
        // The first run plays before it is all read: its first turns are planned.
        if (end < firstRun.length) before = planner.entries.length;
      }
      expect(before).toBeGreaterThan(0);
      expect(planner.entries).toEqual(whole.entries);
      expect(planner.diffs).toEqual(whole.diffs);
    }
  });

  it("never cuts a long run at a sub-agent's request while its parent's turn streams", () => {
    const on = (record: TranscriptRecord, seq: number) => ({ ...record, runId: "r", seq });
    const request = (turn: number): TranscriptRecord => ({
      kind: "request",
      turn,
      t: turn * 10,
      provider: "demo",
      model: "demo",
      messages: [],
      settings: {},
    });
    const chunk = (turn: number, t: number, text: string): TranscriptRecord => ({
      kind: "chunk",
      turn,
      t,
      text,
    });
    const metric = (turn: number, at: number): TranscriptRecord => ({
      kind: "event",
      event: {
        type: "metric",
        id: `m${turn}`,
        timestamp: EPOCH + at,
        turn,
        step: { input: 1, output: 1, durationMs: 1, ttftMs: 1 },
        total: { input: 1, output: 1, durationMs: 1 },
      },
    });
    const records = [
      { kind: "event", event: { type: "user", id: "u", timestamp: EPOCH, content: "go" } },
      request(0),
      chunk(0, 1, "<think>a"),
      request(1), // a sub-agent started by a call of turn 0, which still streams
      chunk(1, 12, "sub"),
      metric(1, 13),
      chunk(0, 14, "b</think>"),
      metric(0, 15),
      request(2),
      chunk(2, 21, "done"),
      metric(2, 22),
    ].map((record, index) => on(record as TranscriptRecord, index + 1));
    const planner = new ReplayPlanner("xml", 1);
    planner.add(records.slice(0, 5), false);
    expect(planner.records).toBe(1); // the user's message, up to turn 0's request; not turn 1's
    planner.add(records.slice(5, 10), false);
    expect(planner.records).toBe(8); // up to turn 2's request: turns 0 and 1 ended
    planner.add(records.slice(10), true);
    expect(planner.entries).toEqual(planReplay("xml", records).entries);
  });

  it("holds back the last run until the next one begins or nothing more comes", () => {
    const planner = new ReplayPlanner("xml");
    const secondRun = conversation.findIndex((record) => record.runId !== conversation[0]?.runId);
    expect(planner.add(conversation.slice(0, secondRun), false)).toEqual([]);
    expect(planner.records).toBe(0);
    const planned = planner.add(conversation.slice(secondRun, secondRun + 1), false);
    expect(planned.length).toBeGreaterThan(0);
    expect(planner.records).toBe(secondRun);
    expect(planner.lastSeq).toBe(conversation[secondRun - 1]?.seq);
    expect(planner.complete).toBe(false);
  });

  it("estimates the whole length from the time per record planned, exact once complete", () => {
    const planner = new ReplayPlanner("xml");
    const secondRun = conversation.findIndex((record) => record.runId !== conversation[0]?.runId);
    planner.add(conversation.slice(0, secondRun + 1), false);
    const estimate = estimatedDuration(planner, conversation.length);
    expect(estimate).toBeCloseTo((planner.duration * conversation.length) / secondRun);
    planner.add(conversation.slice(secondRun + 1), true);
    expect(estimatedDuration(planner, conversation.length)).toBe(planner.duration);
  });

  it("replays calls made at the same time at their recorded pace, planned whole or by page", () => {
    const calls = parallelCalls();
    const whole = planReplay("xml", calls);
    // The three calls take the 6 s they ran for (the last started 30 ms after the first), then
    // the pause of 500 ms before the next call, and its chunk at 50 ms.
    expect(whole.duration).toBe(6030 + 500 + 50);
    for (const size of [1, 7, 50, calls.length]) {
      const planner = new ReplayPlanner("xml");
      for (let at = 0; at < calls.length; at += size) {
        const end = Math.min(calls.length, at + size);
        planner.add(calls.slice(at, end), end === calls.length);
      }
      expect(planner.entries).toEqual(whole.entries);
      expect(planner.duration).toBe(whole.duration);
    }
  });
});
