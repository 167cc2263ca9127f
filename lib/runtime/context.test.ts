import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol/events";
import { mergePieces } from "../protocol/merge";
import { parseAll } from "../protocol/parser";
import { assembleContext } from "./context";

const span = { start: 0, end: 0 };
const at = (turn: number) => ({ timestamp: 0, turn, span });

/** A stored two-turn conversation: read a file, then answer. */
const stored: ProtocolEvent[] = [
  { type: "user", id: "u1", timestamp: 0, content: "debug app.py" },
  { type: "think", id: "t0-1", ...at(0), content: "should read " },
  { type: "think", id: "t0-1", ...at(0), content: "the file" },
  {
    type: "call",
    id: "t0-2",
    ...at(0),
    call: { id: "t0-2", name: "read", args: { file: "app.py" } },
  },
  { type: "call", id: "t0-3", ...at(0), call: { id: "t0-3", name: "list", args: { path: "." } } },
  { type: "execute", id: "t0-4", ...at(0) },
  {
    type: "result",
    id: "r1",
    timestamp: 0,
    callId: "t0-2",
    payload: {
      tool: "read",
      status: "success",
      content: "print(1/0)",
      outcome: "Read 1 line",
      durationMs: 2,
    },
  },
  {
    type: "result",
    id: "r2",
    timestamp: 0,
    callId: "t0-3",
    payload: {
      tool: "list",
      status: "failure",
      content: "Permission denied",
      outcome: "Failed",
      durationMs: 1,
    },
  },
  {
    type: "metric",
    id: "m",
    timestamp: 0,
    step: { input: 1, output: 1, durationMs: 1, ttftMs: 1 },
    total: { input: 1, output: 1, durationMs: 1 },
  },
  { type: "respond", id: "t1-1", ...at(1), content: "fixed the bug" },
];

describe("assembleContext", () => {
  it("builds the xml design example's messages", () => {
    const messages = assembleContext("xml", "PROTOCOL + TOOLS", stored);
    expect(messages.map((message) => message.role)).toEqual([
      "system",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(messages[2]?.content).toBe(
      '<think>should read the file</think>\n\n<execute>\n[\n  {"name":"read","args":{"file":"app.py"}},\n  {"name":"list","args":{"path":"."}}\n]\n</execute>',
    );
    expect(messages[3]?.content).toBe(
      '<results>\n[\n  {"tool":"read","status":"success","content":"print(1/0)"},\n  {"tool":"list","status":"failure","content":"Permission denied"}\n]\n</results>',
    );
    expect(messages[4]?.content).toBe("<respond>fixed the bug</respond>");
  });

  it("writes results as [SYSTEM: …] for the delimiter dialect and with ids for action", () => {
    expect(assembleContext("delimiter", "S", stored)[3]?.content.startsWith("[SYSTEM: [")).toBe(
      true,
    );
    expect(assembleContext("action", "S", stored)[3]?.content).toContain('"id":"t0-2"');
  });

  it("writes hermes results as one <tool_response> per call, in call order, in one message", () => {
    const messages = assembleContext("hermes", "S", stored);
    expect(messages[2]?.content).toBe(
      '<think>should read the file</think>\n\n<tool_call>\n{"name":"read","arguments":{"file":"app.py"}}\n</tool_call>\n<tool_call>\n{"name":"list","arguments":{"path":"."}}\n</tool_call>',
    );
    expect(messages[3]).toEqual({
      role: "user",
      content:
        '<tool_response>\n{"name":"read","content":"print(1/0)"}\n</tool_response>\n<tool_response>\n{"name":"list","content":"Permission denied"}\n</tool_response>',
    });
    expect(messages[4]?.content).toBe("fixed the bug");
  });

  it.each(["xml", "delimiter", "action", "hermes"] as const)(
    "%s: parsing the assistant messages gives the conversation back",
    (dialect) => {
      const messages = assembleContext(dialect, "S", stored);
      const reparsed = messages
        .filter((message) => message.role === "assistant")
        .flatMap((message, turn) => mergePieces(parseAll(dialect, message.content, { turn })));
      const shape = (events: readonly ProtocolEvent[]) =>
        mergePieces(events).flatMap((event) => {
          if (event.type === "think" || event.type === "respond")
            return [[event.type, event.content]];
          if (event.type === "call") return [["call", event.call.name, event.call.args]];
          return [];
        });
      expect(shape(reparsed)).toEqual(shape(stored));
      expect(reparsed.filter((event) => event.type === "error")).toEqual([]);
    },
  );
});
