import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import type { ResolvedProviderModel } from "../providers";
import { providerRun, redactRecord } from "./provider-run";

const KEY = "sk-live-planted0key0split0over0chunks";

/** A model that writes `pieces` as separate stream deltas. */
function writes(pieces: readonly string[]) {
  return new MockLanguageModelV3({
    doStream: async () => ({
      stream: new ReadableStream<LanguageModelV3StreamPart>({
        start(controller) {
          controller.enqueue({ type: "text-start", id: "1" });
          for (const delta of pieces) controller.enqueue({ type: "text-delta", id: "1", delta });
          controller.enqueue({ type: "text-end", id: "1" });
          controller.enqueue({
            type: "finish",
            finishReason: { unified: "stop", raw: "stop" },
            usage: {
              inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: 1, text: 1, reasoning: 0 },
            },
          });
          controller.close();
        },
      }),
    }),
  });
}

describe("providerRun", () => {
  it("redacts a configured key the model writes split over chunks, before any record sees it", async () => {
    const model = writes([
      "<respond>the key is sk-li",
      "ve-planted0key0sp",
      "lit0over0chunks, done</respond>",
    ]);
    const resolved = {
      ok: true,
      model,
      provider: "openai",
      id: "mock",
      label: "Mock",
      stopSequences: [],
      secrets: [KEY],
    } satisfies ResolvedProviderModel;
    const run = providerRun(resolved, {}, { idleTimeoutMs: 0, providerEnv: {} });
    const texts: string[] = [];
    for await (const part of run.streamTurn({
      model,
      messages: [{ role: "user", content: "hi" }],
      settings: {},
      signal: new AbortController().signal,
    }))
      if (part.type === "text") texts.push(part.text);
    expect(texts.join("")).toBe("<respond>the key is [redacted], done</respond>");
    for (const text of texts) {
      expect(text).not.toContain("sk-li");
      expect(text).not.toContain("planted0key");
    }
  });

  it("gives each record with its JSON, a configured key's value replaced in both", () => {
    const clean: TranscriptRecord = { kind: "chunk", turn: 0, t: 1, text: "nothing to hide" };
    const same = redactRecord(clean, [KEY]);
    expect(same.record).toBe(clean);
    expect(same.json).toBe(JSON.stringify(clean));
    const leaky: TranscriptRecord = { kind: "chunk", turn: 0, t: 2, text: `echo "${KEY}"` };
    const { record, json } = redactRecord(leaky, [KEY]);
    expect(record).toEqual({ kind: "chunk", turn: 0, t: 2, text: 'echo "[redacted]"' });
    expect(json).toBe(JSON.stringify(record));
    expect(json).not.toContain("planted0key");
    // No secrets configured: the record as it is, serialised once.
    expect(redactRecord(leaky, [])).toEqual({ record: leaky, json: JSON.stringify(leaky) });
  });
});
