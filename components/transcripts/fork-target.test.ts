import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "@/lib/protocol";
import type { StoredRecord } from "@/lib/store/store";
import { forkTargetOf } from "./fork-target";

const span = { start: 0, end: 1 };
let seq = 0;
const rec = (event: ProtocolEvent): StoredRecord => ({
  kind: "event",
  event,
  seq: ++seq,
  runId: "r1",
});
const call = (id: string, name: string, turn: number): ProtocolEvent => ({
  type: "call",
  id: `ev-${id}`,
  timestamp: 0,
  turn,
  span,
  call: { id, name, args: {} },
});
const result = (callId: string, content: unknown, parent?: string): ProtocolEvent => ({
  type: "result",
  id: `res-${callId}`,
  timestamp: 0,
  callId,
  payload: { tool: "t", status: "success", content, outcome: "ok", durationMs: 1 },
  ...(parent === undefined ? {} : { parent }),
});

seq = 0;
const records: StoredRecord[] = [
  rec({ type: "user", id: "u1", timestamp: 0, content: "list the files" }), // 1
  { kind: "chunk", turn: 1, t: 5, text: "<x>", seq: ++seq, runId: "r1" }, // 2
  rec(call("c1", "list", 1)), // 3
  rec(call("c2", "read", 1)), // 4
  rec(result("c2", "second")), // 5
  rec(result("inner", "sub", "ev-c2")), // 6
  rec(result("c1", ["a.md"])), // 7
  rec(call("c3", "search", 2)), // 8
  rec(result("c3", "third")), // 9
  rec({ type: "respond", id: "r", timestamp: 0, turn: 3, span, content: "done" }), // 10
];

describe("forkTargetOf", () => {
  it("forks a user message at itself, with its text to edit", () => {
    expect(forkTargetOf(records, "u1")).toEqual({ kind: "user", at: 1, content: "list the files" });
  });

  it("forks a call after the last result of its batch, with its own result", () => {
    expect(forkTargetOf(records, "ev-c2")).toEqual({
      kind: "call",
      at: 7,
      callId: "c2",
      name: "read",
      result: { content: "second", status: "success" },
    });
    expect(forkTargetOf(records, "ev-c3")).toMatchObject({ at: 9, callId: "c3" });
  });

  it("treats a selected result like its call", () => {
    expect(forkTargetOf(records, "res-c1")).toMatchObject({ kind: "call", callId: "c1", at: 7 });
  });

  it("forks anything else, or nothing, at the end", () => {
    expect(forkTargetOf(records, "r")).toEqual({ kind: "end", at: 10 });
    expect(forkTargetOf(records, null)).toEqual({ kind: "end", at: 10 });
    expect(forkTargetOf(records, "res-inner")).toEqual({ kind: "end", at: 10 });
    expect(forkTargetOf([], "u1")).toEqual({ kind: "end", at: 0 });
  });
});
