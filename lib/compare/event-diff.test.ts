import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol/events";
import { diffEvents, sameJson } from "./event-diff";

const span = { start: 0, end: 1 };
const call = (id: string, name: string, args: Record<string, unknown>): ProtocolEvent => ({
  type: "call",
  id,
  timestamp: 1,
  turn: 0,
  span,
  call: { id, name, args },
});
const result = (
  callId: string,
  status: "success" | "failure",
  content: unknown,
): ProtocolEvent => ({
  type: "result",
  id: `r-${callId}`,
  timestamp: 2,
  callId,
  payload: { tool: "read", status, content, outcome: "", durationMs: 1 },
});
const error = (code: "invalid_json" | "max_turns", message: string): ProtocolEvent => ({
  type: "error",
  id: "x",
  timestamp: 3,
  code,
  message,
});

describe("diffEvents", () => {
  it("names no field for events equal but for ids and times", () => {
    const pairs = diffEvents(
      [call("a1", "read", { path: "x" })],
      [{ ...call("b9", "read", { path: "x" }), timestamp: 99 }],
    );
    expect(pairs).toHaveLength(1);
    expect(pairs[0]?.fields).toEqual([]);
  });

  it("names a call's arguments and a result's status and content", () => {
    const pairs = diffEvents(
      [call("c", "read", { path: "a" }), result("c", "success", "hello")],
      [call("c", "read", { path: "b" }), result("c", "failure", "no such file")],
    );
    expect(pairs.map((pair) => pair.fields)).toEqual([["args"], ["status", "content"]]);
  });

  it("shows an error that only one side has on its side alone, the rest still paired", () => {
    const pairs = diffEvents(
      [call("c", "read", {}), error("invalid_json", "bad"), result("c", "success", 1)],
      [call("c", "read", {}), result("c", "success", 1)],
    );
    expect(pairs.map((pair) => [pair.a?.type, pair.b?.type, pair.fields])).toEqual([
      ["call", "call", []],
      ["error", undefined, undefined],
      ["result", "result", []],
    ]);
  });

  it("pairs a renamed call and names the name", () => {
    const pairs = diffEvents([call("c", "read", {})], [call("c", "list", {})]);
    expect(pairs.map((pair) => pair.fields)).toEqual([["name"]]);
  });

  it("does not pair events of different types", () => {
    const pairs = diffEvents([call("c", "read", {})], [error("max_turns", "stop")]);
    expect(pairs).toEqual([{ a: call("c", "read", {}) }, { b: error("max_turns", "stop") }]);
  });

  it("compares JSON regardless of key order", () => {
    expect(sameJson({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(sameJson([1, 2], { 0: 1, 1: 2 })).toBe(false);
  });
});
