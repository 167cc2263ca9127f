import { beforeAll, describe, expect, it } from "vitest";
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
});
