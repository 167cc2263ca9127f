import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import { mergePieces } from "../protocol/merge";
import { parseAll } from "../protocol/parser";
import { REASONER_DIALECT } from "../protocol/testing";
import { thinkMarkers } from "../protocol/written-back";
import { reasoningToText } from "./reasoning-as-think";

/** A tags dialect whose think markers are `<t>` and `</t>`. */
const tiny: DialectDefinition = {
  name: "tiny",
  family: "tags",
  think: ["<t>", "</t>"],
  batch: ["<x>", "</x>"],
  results: ["<r>", "</r>"],
};

async function through(
  parts: LanguageModelV3StreamPart[],
  dialect: Dialect | DialectDefinition = tiny,
): Promise<LanguageModelV3StreamPart[]> {
  const out: LanguageModelV3StreamPart[] = [];
  const stream = new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  }).pipeThrough(reasoningToText(dialect));
  const reader = stream.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

const finish: LanguageModelV3StreamPart = {
  type: "finish",
  finishReason: { unified: "stop", raw: "stop" },
  usage: {
    inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: 1, text: 1, reasoning: undefined },
  },
};

/** Every text delta belongs to a text block that was started and not yet ended. */
function expectDeltasInOpenBlocks(parts: readonly LanguageModelV3StreamPart[]) {
  const open = new Set<string>();
  for (const part of parts) {
    if (part.type === "text-start") open.add(part.id);
    if (part.type === "text-delta") expect(open.has(part.id)).toBe(true);
    if (part.type === "text-end") open.delete(part.id);
  }
  expect(open.size).toBe(0);
}

const textOf = (parts: LanguageModelV3StreamPart[]) =>
  parts.map((part) => (part.type === "text-delta" ? part.delta : "")).join("");

describe("thinkMarkers", () => {
  it("reads each dialect's think markers off its encoder, a definition's too", () => {
    expect(thinkMarkers("xml")).toEqual({ open: "<think>", close: "</think>\n" });
    expect(thinkMarkers("hermes")).toEqual({ open: "<think>", close: "</think>\n" });
    expect(thinkMarkers("action")).toEqual({ open: "<thought>", close: "</thought>\n" });
    expect(thinkMarkers("delimiter")).toEqual({ open: "§think: ", close: "\n" });
    expect(thinkMarkers(REASONER_DIALECT)).toEqual({
      open: "<reasoning>",
      close: "</reasoning>\n",
    });
  });
});

describe("reasoningToText", () => {
  it("writes reasoning as a text block in the markers, before the text that follows", async () => {
    const parts = await through([
      { type: "stream-start", warnings: [] },
      { type: "reasoning-start", id: "r" },
      { type: "reasoning-delta", id: "r", delta: "hmm " },
      { type: "response-metadata", id: "x" },
      { type: "reasoning-delta", id: "r", delta: "ok" },
      { type: "reasoning-end", id: "r" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Hi" },
      { type: "text-end", id: "t" },
      finish,
    ]);
    expect(textOf(parts)).toBe("<t>hmm ok</t>\nHi");
    expect(parts.map((part) => part.type)).toEqual([
      "stream-start",
      "text-start",
      "text-delta",
      "response-metadata",
      "text-delta",
      "text-delta",
      "text-end",
      "text-start",
      "text-delta",
      "text-end",
      "finish",
    ]);
    expectDeltasInOpenBlocks(parts);
  });

  it("closes reasoning a server never ends, before the text, and at the end of the stream", async () => {
    const cut = await through([
      { type: "reasoning-delta", id: "r", delta: "a" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "b" },
      { type: "text-end", id: "t" },
      { type: "reasoning-delta", id: "r2", delta: "c" },
    ]);
    expect(textOf(cut)).toBe("<t>a</t>\nb<t>c</t>\n");
    expect(cut.at(-1)).toEqual({ type: "text-end", id: "reasoning:r2" });
  });

  it.each([
    ["xml", "xml", "<respond>", "</respond>"],
    ["a user's definition", REASONER_DIALECT, "<answer>", "</answer>"],
  ] as const)(
    "writes reasoning that comes inside a response after it: one answer, one think (%s)",
    async (_name, dialect, open, close) => {
      // Interleaved thinking: a text block opens the response, a thinking block, a text block ends it.
      const parts = await through(
        [
          { type: "text-start", id: "t1" },
          { type: "text-delta", id: "t1", delta: `${open}Hello the` },
          { type: "text-end", id: "t1" },
          { type: "reasoning-start", id: "r" },
          { type: "reasoning-delta", id: "r", delta: "They want more." },
          { type: "reasoning-end", id: "r" },
          { type: "text-start", id: "t2" },
          { type: "text-delta", id: "t2", delta: `re, world.${close}` },
          { type: "text-end", id: "t2" },
          finish,
        ],
        dialect,
      );
      const { open: thinkOpen, close: thinkClose } = thinkMarkers(dialect);
      const wire = textOf(parts);
      expect(wire).toBe(
        `${open}Hello there, world.${close}${thinkOpen}They want more.${thinkClose}`,
      );
      const events = mergePieces(parseAll(dialect, wire, { turn: 0 }));
      expect(events.map((event) => event.type)).toEqual(["respond", "think"]);
      expectDeltasInOpenBlocks(parts);
    },
  );

  it("writes reasoning inside a call's JSON after the call, and at the end after a block never closed", async () => {
    const call = '<execute>[{"name":"write","args":{"text":"a </execute> b"}}]</execute>';
    const cut = call.indexOf(" b");
    const parts = await through(
      [
        { type: "text-start", id: "t1" },
        { type: "text-delta", id: "t1", delta: call.slice(0, cut) },
        { type: "reasoning-delta", id: "r", delta: "Check it." },
        { type: "text-delta", id: "t1", delta: call.slice(cut) },
        { type: "reasoning-delta", id: "r2", delta: "Now answer." },
        { type: "text-delta", id: "t1", delta: "\n<respond>Cut off he" },
        { type: "reasoning-delta", id: "r3", delta: "Waited." },
        { type: "text-end", id: "t1" },
        finish,
      ],
      "xml",
    );
    const wire = textOf(parts);
    expect(wire).toBe(
      `${call}<think>Check it.</think>\n<think>Now answer.</think>\n\n<respond>Cut off he<think>Waited.</think>\n`,
    );
    const events = mergePieces(parseAll("xml", wire, { turn: 0 }));
    expect(events.map((event) => event.type)).toEqual([
      "call",
      "execute",
      "think",
      "think",
      "respond",
      "error",
      "think",
    ]);
    // The response the model never closed, then the reasoning that waited on it, as thinking.
    expect(events.slice(-3)).toMatchObject([
      { content: "Cut off he" },
      { code: "unclosed_block" },
      { content: "Waited." },
    ]);
    expectDeltasInOpenBlocks(parts);
  });

  it("writes nothing for reasoning without text", async () => {
    const parts = await through([
      { type: "reasoning-start", id: "r" },
      { type: "reasoning-delta", id: "r", delta: "" },
      { type: "reasoning-end", id: "r" },
      finish,
    ]);
    expect(parts).toEqual([finish]);
  });
});
