import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { streamText } from "ai";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createDemoModel } from "../providers/demo-model";
import { failedStream, inProcessModel } from "../providers/paced-stream";
import { turnPartOf } from "./direct-parts";
import { streamModelTurn, type TurnPart } from "./model-turn";

vi.mock("ai", async (importOriginal) => {
  const original = await importOriginal<typeof import("ai")>();
  return { ...original, streamText: vi.fn(original.streamText) };
});

async function collect(parts: AsyncIterable<TurnPart>): Promise<TurnPart[]> {
  const collected: TurnPart[] = [];
  for await (const part of parts) collected.push(part);
  return collected;
}

/** The demo model, recording each call's prompt; `marked: false` strips the in-process mark. */
function recordingDemo(marked: boolean) {
  const demo = createDemoModel({ dialect: "xml", paceMs: 0 });
  const prompts: string[] = [];
  const model: LanguageModelV3 = {
    ...demo,
    doStream(call: LanguageModelV3CallOptions) {
      prompts.push(JSON.stringify(call.prompt));
      return demo.doStream(call);
    },
  };
  return { model: marked ? inProcessModel(model) : model, prompts };
}

const messages = [
  { role: "system" as const, content: "You write xml." },
  { role: "user" as const, content: "list the files" },
  { role: "assistant" as const, content: "<execute>[]</execute>" },
  { role: "user" as const, content: "<results>[]</results>" },
];

function turn(model: LanguageModelV3, signal = new AbortController().signal) {
  return collect(streamModelTurn({ model, messages, settings: { temperature: 0 }, signal }));
}

describe("an in-process model's turn", () => {
  beforeEach(() => {
    vi.mocked(streamText).mockClear();
  });

  it("is read from its own stream, without the AI SDK's streamText", async () => {
    await turn(recordingDemo(true).model);
    expect(streamText).not.toHaveBeenCalled();
    await turn(recordingDemo(false).model);
    expect(streamText).toHaveBeenCalledTimes(1);
  });

  it("gets the prompt streamText builds and gives the parts it gives", async () => {
    const direct = recordingDemo(true);
    const sdk = recordingDemo(false);
    const directParts = await turn(direct.model);
    const sdkParts = await turn(sdk.model);
    expect(direct.prompts).toEqual(sdk.prompts);
    expect(directParts).toEqual(sdkParts);
    expect(directParts.filter((part) => part.type === "text").length).toBeGreaterThan(3);
    expect(directParts.at(-1)).toMatchObject({ type: "finish", finishReason: "stop" });
  });

  it("reports an error part as the SDK does, and an abort as an abort", async () => {
    const failing = (marked: boolean) => {
      const model: LanguageModelV3 = {
        ...createDemoModel({ dialect: "xml" }),
        doStream: async () => ({ stream: failedStream(new Error("no recording")) }),
      };
      return marked ? inProcessModel(model) : model;
    };
    const [direct, sdk] = [await turn(failing(true)), await turn(failing(false))];
    expect(direct).toEqual(sdk);
    expect(direct).toEqual([{ type: "error", error: new Error("no recording") }]);

    const controller = new AbortController();
    const slow = inProcessModel(createDemoModel({ dialect: "xml", paceMs: 10_000 }));
    const parts = turn(slow, controller.signal);
    setTimeout(() => controller.abort("user"), 0);
    expect((await parts).at(-1)).toEqual({ type: "abort" });
  });
});

describe("turnPartOf: usage", () => {
  it("keeps the 1-hour cache writes Anthropic's raw usage reports, and only those", () => {
    const finish = (raw: unknown) =>
      turnPartOf({
        type: "finish",
        finishReason: { unified: "stop", raw: "end_turn" },
        usage: {
          inputTokens: { total: 1000, noCache: 100, cacheRead: 0, cacheWrite: 900 },
          outputTokens: { total: 5, text: 5, reasoning: undefined },
          raw: raw as never,
        },
      });
    expect(
      finish({
        cache_creation: { ephemeral_5m_input_tokens: 200, ephemeral_1h_input_tokens: 700 },
      }),
    ).toEqual({
      type: "finish",
      finishReason: "stop",
      inputTokens: 1000,
      outputTokens: 5,
      cacheReadTokens: 0,
      cacheWriteTokens: 900,
      cacheWrite1hTokens: 700,
    });
    // Another provider's raw usage, or a broken one: no 1-hour count.
    for (const raw of [
      undefined,
      { prompt_tokens: 1000 },
      { cache_creation: { ephemeral_1h_input_tokens: -1 } },
    ])
      expect(finish(raw)).not.toHaveProperty("cacheWrite1hTokens");
  });
});
