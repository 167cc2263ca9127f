import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { streamModelTurn, type TurnPart } from "./model-turn";
import { StreamIdleError } from "./stream-idle";

/** A model that writes `text`, then sends nothing, and does not even end when aborted. */
function deaf(text: string) {
  return new MockLanguageModelV3({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "text-start", id: "1" });
          controller.enqueue({ type: "text-delta", id: "1", delta: text });
        },
      }),
    }),
  });
}

/** A model that writes `text`, then sends nothing until aborted. */
function stalling(text: string) {
  return new MockLanguageModelV3({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "text-start", id: "1" });
          controller.enqueue({ type: "text-delta", id: "1", delta: text });
          abortSignal?.addEventListener("abort", () => {
            const error = new Error("aborted");
            error.name = "AbortError";
            controller.error(error);
          });
        },
      }),
    }),
  });
}

async function collect(parts: AsyncIterable<TurnPart>): Promise<TurnPart[]> {
  const collected: TurnPart[] = [];
  for await (const part of parts) collected.push(part);
  return collected;
}

const messages = [{ role: "user" as const, content: "hi" }];

describe("streamModelTurn", () => {
  it("stops a stream that sends nothing for the idle timeout and reports it", async () => {
    const parts = await collect(
      streamModelTurn(
        {
          model: stalling("<think>so"),
          messages,
          settings: {},
          signal: new AbortController().signal,
        },
        { idleTimeoutMs: 50 },
      ),
    );
    expect(parts[0]).toEqual({ type: "text", text: "<think>so" });
    const last = parts.at(-1);
    expect(last?.type).toBe("error");
    expect(last?.type === "error" ? last.error : undefined).toBeInstanceOf(StreamIdleError);
  });

  it("keeps our own abort an abort, not an idle error", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort("user"), 20);
    const parts = await collect(
      streamModelTurn(
        { model: stalling("x"), messages, settings: {}, signal: controller.signal },
        { idleTimeoutMs: 5000 },
      ),
    );
    expect(parts.at(-1)).toEqual({ type: "abort" });
  });

  it("returns at an abort even when the provider's stream never ends", async () => {
    const controller = new AbortController();
    const parts: TurnPart[] = [];
    for await (const part of streamModelTurn(
      { model: deaf("</execute>"), messages, settings: {}, signal: controller.signal },
      { idleTimeoutMs: 0 },
    )) {
      parts.push(part);
      if (part.type === "text") controller.abort("execute boundary");
    }
    expect(parts).toEqual([{ type: "text", text: "</execute>" }, { type: "abort" }]);
  });
});
