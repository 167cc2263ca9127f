import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { ResultEvent } from "../protocol/events";
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

  it("takes key-shaped values out of tool results and requests, not out of the model's stream", () => {
    const file = "OPENAI_API_KEY=sk-proj-abcdefgh1234567890XYZ\nDEBUG=1";
    const result: TranscriptRecord = {
      kind: "event",
      event: {
        type: "result",
        id: "r1",
        timestamp: 1,
        callId: "c1",
        payload: {
          tool: "read",
          status: "success",
          content: file,
          outcome: "Read 2 lines",
          durationMs: 1,
        },
      },
    };
    const { record, json } = redactRecord(result, []);
    expect(json).not.toContain("sk-proj-abcdefgh");
    expect(json).toBe(JSON.stringify(record));
    expect(record).toMatchObject({
      event: { payload: { content: "OPENAI_API_KEY=[redacted]\nDEBUG=1" } },
    });
    // The record handed in is not changed: the loop's own copy (what the model gets) stays whole.
    expect(result).toMatchObject({ event: { payload: { content: file } } });
    const request: TranscriptRecord = {
      kind: "request",
      turn: 1,
      t: 0,
      provider: "demo",
      model: "scripted",
      messages: [{ role: "user", content: `results: ${file}` }],
      settings: {},
    };
    expect(redactRecord(request, []).json).not.toContain("sk-proj-abcdefgh");
    // A result as the next request carries it: JSON inside a message, its quotes escaped.
    const encoded = { ...request, messages: [{ role: "user", content: JSON.stringify([file]) }] };
    expect(redactRecord(encoded as TranscriptRecord, []).json).not.toContain("sk-proj-abcdefgh");
    // Source code keeps its words: only values shaped like keys go.
    const code = "interface User { password: string; secret?: string }\nconst token = read();";
    const source: TranscriptRecord = {
      ...result,
      event: {
        ...result.event,
        payload: { ...(result.event as ResultEvent).payload, content: code },
      },
    } as TranscriptRecord;
    expect(redactRecord(source, []).record).toMatchObject({
      event: { payload: { content: code } },
    });
    // A field whose value looks like a secret (letters and digits mixed) goes, also escaped.
    const env = '{"api_key": "zzzzyyyyxxxx1111", "password": "hunter22hunter"}';
    const fields = {
      ...result,
      event: {
        ...result.event,
        payload: { ...(result.event as ResultEvent).payload, content: env },
      },
    } as TranscriptRecord;
    const fieldsJson = redactRecord(fields, []).json;
    expect(fieldsJson).not.toMatch(/zzzzyyyy|hunter22/);
    const carried = { ...request, messages: [{ role: "user", content: JSON.stringify([env]) }] };
    expect(redactRecord(carried as TranscriptRecord, []).json).not.toMatch(/zzzzyyyy|hunter22/);
    // The model's text was redacted as it streamed; its chunks and events keep their spans.
    const chunk: TranscriptRecord = { kind: "chunk", turn: 0, t: 1, text: "password: hunter22x" };
    expect(redactRecord(chunk, []).record).toBe(chunk);
  });
});
