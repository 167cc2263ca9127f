import { describe, expect, it } from "vitest";
import { EDITED_OUTCOME, groupByRun, owesTurn, planFork } from "./fork";
import { sampleTranscript } from "./testing";

const source = sampleTranscript();
const seqOf = (predicate: (record: (typeof source.records)[number]) => boolean) =>
  source.records.find(predicate)?.seq ?? -1;
const resultSeq = seqOf((record) => record.kind === "event" && record.event.type === "result");

describe("planFork", () => {
  it("copies the records up to the fork point and leaves the source untouched", () => {
    const plan = planFork(source, { at: 5 });
    if (!plan.ok) throw new Error(plan.message);
    expect(plan.plan.records).toEqual(
      source.records.slice(0, 5).map(({ seq: _seq, ...rest }) => rest),
    );
    expect(plan.plan).toMatchObject({
      title: "List the files ✨ · fork",
      forkPoint: 5,
      dialect: "xml",
      model: { provider: "demo", id: "scripted" },
      continueWith: { dialect: "xml", resume: false },
    });
    expect(source).toEqual(sampleTranscript());
  });

  it("edits a user message: the fork ends just before it and the client sends the new text", () => {
    const plan = planFork(source, { at: 1, editUserMessage: "list the notes", dialect: "action" });
    expect(plan).toEqual({
      ok: true,
      plan: {
        title: "List the files ✨ · fork",
        dialect: "action",
        model: { provider: "demo", id: "scripted" },
        forkPoint: 0,
        records: [],
        continueWith: {
          dialect: "action",
          model: { provider: "demo", id: "scripted" },
          message: "list the notes",
          resume: false,
        },
      },
    });
  });

  it("edits a result in the copy: a mock result the model continues from", () => {
    const plan = planFork(source, {
      at: resultSeq,
      editResult: { callId: "c1", content: { files: ["mock.txt"] }, status: "success" },
    });
    if (!plan.ok) throw new Error(plan.message);
    const last = plan.plan.records.at(-1);
    expect(last).toMatchObject({
      kind: "event",
      runId: "run-2",
      event: {
        type: "result",
        callId: "c1",
        payload: {
          tool: "list",
          status: "success",
          content: { files: ["mock.txt"] },
          outcome: EDITED_OUTCOME,
          durationMs: 0,
        },
      },
    });
    expect(plan.plan.continueWith.resume).toBe(true);
    expect(source).toEqual(sampleTranscript());
  });

  it("plans the same from the records up to its point, given the source's last seq", () => {
    for (const request of [
      { at: 12 },
      { at: 13, editUserMessage: "again" },
      { at: 17, editResult: { callId: "c1", content: "x" } },
    ]) {
      const upTo = {
        meta: source.meta,
        records: source.records.filter((r) => r.seq <= request.at),
      };
      expect(planFork(upTo, request, 22)).toEqual(planFork(source, request));
    }
    const none = { meta: source.meta, records: [] };
    expect(planFork(none, { at: 999 }, 22)).toEqual(planFork(source, { at: 999 }));
  });

  it.each([
    [{ at: 999 }, "at", "must be a seq from 0 to 22."],
    [{ at: -1 }, "at", "must be a seq from 0 to 22."],
    [{ at: 1.5 }, "at", "must be a seq from 0 to 22."],
    [{ at: 3, editUserMessage: "x" }, "at", "seq 3 is not a user message"],
    [{ at: 12, editUserMessage: "x" }, "at", "seq 12 is not a user message"],
    [
      { at: 5, editResult: { callId: "c1", content: "x" } },
      "editResult.callId",
      'no result for call "c1" at or before seq 5.',
    ],
    [
      { at: 5, editUserMessage: "x", editResult: { callId: "c1", content: "x" } },
      "body",
      "send editUserMessage or editResult",
    ],
  ])("refuses %j", (request, field, message) => {
    const plan = planFork(source, request);
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.field).toBe(field);
    expect(plan.message.startsWith(message)).toBe(true);
  });
});

describe("owesTurn", () => {
  it("is true after a user message or a result, false after the model's answer", () => {
    const records = source.records;
    expect(owesTurn(records.slice(0, 1))).toBe(true);
    expect(owesTurn(records.slice(0, 5))).toBe(false);
    expect(owesTurn(records.slice(0, resultSeq))).toBe(true);
    // A sub-agent's events do not count: the top-level call still waits for its result.
    expect(owesTurn(records.slice(0, 15))).toBe(false);
    expect(owesTurn(records)).toBe(false);
    expect(owesTurn([])).toBe(false);
  });
});

describe("groupByRun", () => {
  it("groups consecutive records of one run, dropping the run id from each", () => {
    const groups = groupByRun(
      [
        { kind: "chunk", turn: 0, t: 0, text: "a", runId: "r1" },
        { kind: "chunk", turn: 0, t: 1, text: "b", runId: "r1" },
        { kind: "chunk", turn: 1, t: 0, text: "c" },
        { kind: "chunk", turn: 2, t: 0, text: "d", runId: "r1" },
      ],
      "imported",
    );
    expect(
      groups.map((group) => [
        group.runId,
        group.records.map((record) => (record.kind === "chunk" ? record.text : "")),
      ]),
    ).toEqual([
      ["r1", ["a", "b"]],
      ["imported", ["c"]],
      ["r1", ["d"]],
    ]);
    expect(groups[0]?.records[0]).toEqual({ kind: "chunk", turn: 0, t: 0, text: "a" });
  });
});
