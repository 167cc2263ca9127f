/**
 * What a reviewer found feeding the playground an OpenAI-compatible server's reasoning and
 * native calls: the answer after reasoning lost in the delimiter dialect, a call drafted in
 * the reasoning run, a second `call_0` refused in the action dialect.
 */
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { createParser, type Dialect, mergePieces, type ProtocolEvent } from "../protocol";
import { withServerPartsAsText } from "./server-parts";

const finish: LanguageModelV3StreamPart = {
  type: "finish",
  finishReason: { unified: "stop", raw: "stop" },
  usage: {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  },
};

/** The text the runtime reads when a server streams `parts`, and the events it parses to. */
async function written(dialect: Dialect, parts: LanguageModelV3StreamPart[]) {
  const server = new MockLanguageModelV3({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          for (const part of [...parts, finish]) controller.enqueue(part);
          controller.close();
        },
      }),
    }),
  });
  const { stream } = await withServerPartsAsText(server, dialect).doStream({ prompt: [] });
  let text = "";
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read())
    if (next.value.type === "text-delta") text += next.value.delta;
  const parser = createParser(dialect, { turn: 0 });
  const events: ProtocolEvent[] = mergePieces([...parser.feed(text), ...parser.end()]);
  return { text, events };
}

const reasoning = (...deltas: string[]): LanguageModelV3StreamPart[] => [
  { type: "reasoning-start", id: "r" },
  ...deltas.map(
    (delta): LanguageModelV3StreamPart => ({ type: "reasoning-delta", id: "r", delta }),
  ),
  { type: "reasoning-end", id: "r" },
];
const answer = (...deltas: string[]): LanguageModelV3StreamPart[] => [
  { type: "text-start", id: "t" },
  ...deltas.map((delta): LanguageModelV3StreamPart => ({ type: "text-delta", id: "t", delta })),
  { type: "text-end", id: "t" },
];

describe("withServerPartsAsText", () => {
  it("delimiter: the answer after reasoning is a response, however its first deltas fall", async () => {
    for (const deltas of [
      ["Hello there!"],
      ["\n", "Hel", "lo there!"],
      ["", " ", "Hello there!"],
    ]) {
      const { text, events } = await written("delimiter", [
        ...reasoning("The user greets me."),
        ...answer(...deltas),
      ]);
      expect(
        events.map((event) => event.type),
        text,
      ).toEqual(["think", "respond"]);
      expect(events[1]).toMatchObject({ type: "respond", content: "Hello there!" });
    }
  });

  it("delimiter: an answer that opens with a marker of its own is left as it is", async () => {
    const { text } = await written("delimiter", [
      ...reasoning("Plan."),
      ...answer("§", "respond: Hi.\n§end"),
    ]);
    expect(text).toBe("§think: Plan.\n§respond: Hi.\n§end");
  });

  it.each<[Dialect, string]>([
    ["xml", '</think>\n<execute>[{"name":"rm","args":{"path":"/"}}]</execute>'],
    ["delimiter", 'so\n§call: {"name":"rm","args":{"path":"/"}}\n§execute'],
    [
      "action",
      '</thought><action type="tool" mode="sync" id="x">{"name":"rm","parameters":{}}</action>',
    ],
    ["hermes", '</think><tool_call>{"name":"rm","arguments":{}}</tool_call>'],
  ])(
    "%s: a call drafted in the reasoning does not run; the reasoning stays one think block",
    async (dialect, draft) => {
      const cut = Math.floor(draft.length / 2);
      const { events } = await written(dialect, [
        ...reasoning("I could ", draft.slice(0, cut), draft.slice(cut), " but no."),
      ]);
      expect(events.map((event) => event.type)).toEqual(["think"]);
      expect(events[0]).toMatchObject({ content: expect.stringContaining("but no.") });
    },
  );

  it("action: two native calls with the same server id both run", async () => {
    const { events } = await written("action", [
      { type: "tool-call", toolCallId: "call_0", toolName: "list", input: "{}" },
      { type: "tool-call", toolCallId: "call_0", toolName: "read", input: '{"file":"a"}' },
    ]);
    expect(events.filter((event) => event.type === "error")).toEqual([]);
    const calls = events.flatMap((event) => (event.type === "call" ? [event.call] : []));
    expect(calls.map((call) => [call.id, call.name])).toEqual([
      ["call_0", "list"],
      ["call_0-2", "read"],
    ]);
  });
});
