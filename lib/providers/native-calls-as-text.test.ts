import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { createParser, type Dialect, mergePieces, type ProtocolEvent } from "../protocol";
import type { DialectDefinition } from "../protocol/definition";
import { REASONER_DIALECT } from "../protocol/testing";
import { nativeCallsText } from "../protocol/written-back";
import { nativeCallsToText } from "./native-calls-as-text";

function parse(dialect: Dialect | DialectDefinition, text: string): ProtocolEvent[] {
  const parser = createParser(dialect, { turn: 0 });
  return mergePieces([...parser.feed(text), ...parser.end()]);
}

const calls = [
  { id: "call_1", name: "list", input: '{"path": "."}' },
  { id: "call 2 <x>", name: "read", input: '{"file":"notes/todo.md"}' },
];

describe("nativeCallsText", () => {
  it.each<Dialect | DialectDefinition>(["xml", "delimiter", "action", "hermes", REASONER_DIALECT])(
    "writes native calls in the dialect's own syntax, read back as its calls (%s)",
    (dialect) => {
      const events = parse(dialect, nativeCallsText(dialect, calls));
      expect(events.filter((event) => event.type === "error")).toEqual([]);
      const read = events.flatMap((event) => (event.type === "call" ? [event.call] : []));
      expect(read.map(({ name, args }) => ({ name, args }))).toEqual([
        { name: "list", args: { path: "." } },
        { name: "read", args: { file: "notes/todo.md" } },
      ]);
    },
  );

  it("keeps the arguments' text verbatim: broken ones get the parser's error, empty ones are {}", () => {
    const text = nativeCallsText("xml", [
      { id: "a", name: "list", input: "" },
      { id: "b", name: "read", input: '{"file": "x"' },
    ]);
    expect(text).toContain('"args":{}');
    expect(text).toContain('{"file": "x"');
    expect(parse("xml", text).some((event) => event.type === "error")).toBe(true);
  });
});

async function through(parts: LanguageModelV3StreamPart[]): Promise<LanguageModelV3StreamPart[]> {
  const out: LanguageModelV3StreamPart[] = [];
  const reader = new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  })
    .pipeThrough(nativeCallsToText("xml"))
    .getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

const finish: LanguageModelV3StreamPart = {
  type: "finish",
  finishReason: { unified: "tool-calls", raw: "tool_calls" },
  usage: {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  },
};

const textOf = (parts: LanguageModelV3StreamPart[]) =>
  parts.map((part) => (part.type === "text-delta" ? part.delta : "")).join("");

describe("nativeCallsToText", () => {
  it("writes the turn's native calls as one batch after its text, before its finish", async () => {
    const parts = await through([
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "<think>calling</think>" },
      { type: "text-end", id: "t" },
      { type: "tool-input-start", id: "call_1", toolName: "list" },
      { type: "tool-input-delta", id: "call_1", delta: '{"path":' },
      { type: "tool-input-delta", id: "call_1", delta: '"."}' },
      { type: "tool-input-end", id: "call_1" },
      { type: "tool-call", toolCallId: "call_1", toolName: "list", input: '{"path":"."}' },
      {
        type: "tool-call",
        toolCallId: "call_2",
        toolName: "calculate",
        input: '{"expression":"1+1"}',
      },
      finish,
    ]);
    const text = textOf(parts);
    expect(text).toBe(
      `<think>calling</think>\n${nativeCallsText("xml", [
        { id: "call_1", name: "list", input: '{"path":"."}' },
        { id: "call_2", name: "calculate", input: '{"expression":"1+1"}' },
      ])}`,
    );
    expect(parts.at(-1)).toBe(finish);
    expect(parts.some((part) => part.type.startsWith("tool-"))).toBe(false);
    const events = parse("xml", text);
    expect(events.filter((event) => event.type === "call")).toHaveLength(2);
    expect(events.some((event) => event.type === "execute")).toBe(true);
  });

  it("passes a stream without native calls as it is, and writes calls of a stream cut before its finish", async () => {
    const plain: LanguageModelV3StreamPart[] = [
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Hi" },
      { type: "text-end", id: "t" },
      finish,
    ];
    expect(await through(plain)).toEqual(plain);
    const cut = await through([
      { type: "tool-call", toolCallId: "c", toolName: "list", input: "{}" },
    ]);
    expect(textOf(cut)).toBe(nativeCallsText("xml", [{ id: "c", name: "list", input: "{}" }]));
  });
});
