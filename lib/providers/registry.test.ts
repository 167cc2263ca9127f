import { describe, expect, it } from "vitest";
import { isReasoningModel } from "./openai";
import { resolveModel } from "./registry";
import { DIALECT_STOP_SEQUENCES, mergeStopSequences } from "./stop-sequences";

const env = {
  OPENAI_API_KEY: "sk-test-openai-000000",
  ANTHROPIC_API_KEY: "test-anthropic-000000",
  GOOGLE_GENERATIVE_AI_API_KEY: "test-google-000000",
  WIRESCOPE_COMPAT_BASE_URL: "http://user:pass@127.0.0.1:8000/v1/?token=x",
  OPENROUTER_API_KEY: "sk-or-test-000000",
};

describe("resolveModel", () => {
  it.each([
    ["openai", "set OPENAI_API_KEY"],
    ["anthropic", "set ANTHROPIC_API_KEY"],
    ["google", "set GOOGLE_GENERATIVE_AI_API_KEY"],
    ["compat", "set WIRESCOPE_COMPAT_BASE_URL"],
    ["openrouter", "set OPENROUTER_API_KEY"],
  ])("refuses an unconfigured %s, saying what to set", (provider, configure) => {
    const resolved = resolveModel({ provider }, "xml", { env: {} });
    expect(resolved).toMatchObject({ ok: false, field: "model.provider" });
    expect(resolved.ok ? "" : resolved.message).toContain(`${configure} (see .env.example)`);
  });

  it("names every provider when one is unknown", () => {
    const resolved = resolveModel({ provider: "nope" }, "xml", { env });
    expect(resolved.ok ? "" : resolved.message).toBe(
      'Unknown provider "nope". Available: demo, openai, anthropic, google, compat, ollama, lmstudio, vllm, llamacpp, openrouter.',
    );
  });

  it.each([
    ["openai", "gpt-4.1", "openai.chat"],
    ["anthropic", "claude-sonnet-5-5", "anthropic.messages"],
    ["google", "gemini-3.5-flash", "google.generative-ai"],
    ["compat", "qwen3", "compat.chat"],
    ["ollama", "llama4", "ollama.chat"],
    ["openrouter", "openai/gpt-5.5", "openrouter.chat"],
  ])("builds %s models through the AI SDK", (provider, id, sdkProvider) => {
    const resolved = resolveModel({ provider, id }, "delimiter", { env });
    if (!resolved.ok) throw new Error(resolved.message);
    expect(resolved).toMatchObject({ provider, id, stopSequences: ["\n[SYSTEM:"] });
    expect(typeof resolved.model === "object" && resolved.model.provider).toBe(sdkProvider);
  });

  it("uses a default model where there is one and asks for one where there is not", () => {
    expect(resolveModel({ provider: "anthropic" }, "xml", { env })).toMatchObject({
      ok: true,
      id: "claude-sonnet-5-5",
    });
    expect(resolveModel({ provider: "ollama" }, "xml", { env })).toMatchObject({
      ok: false,
      field: "model.id",
    });
  });

  it("shows base URLs without credentials and keeps keys for redaction only", () => {
    const resolved = resolveModel({ provider: "compat", id: "m" }, "xml", { env });
    expect(resolved).toMatchObject({ baseURL: "http://127.0.0.1:8000/v1", secrets: [] });
    expect(resolveModel({ provider: "openai" }, "xml", { env })).toMatchObject({
      secrets: [env.OPENAI_API_KEY],
      keyVariable: "OPENAI_API_KEY",
    });
  });

  it("sends no stop sequences to models that refuse them, nor to the demo", () => {
    expect(resolveModel({ provider: "openai", id: "o3" }, "xml", { env })).toMatchObject({
      stopSequences: [],
    });
    expect(resolveModel({ provider: "openai", id: "gpt-4.1" }, "xml", { env })).toMatchObject({
      stopSequences: ["\n<results>"],
    });
    expect(resolveModel({ provider: "demo" }, "xml")).toMatchObject({ stopSequences: [] });
  });
});

describe("isReasoningModel", () => {
  it.each([
    ["o3", true],
    ["o4-mini", true],
    ["gpt-5", true],
    ["gpt-5.5", true],
    ["gpt-6-sol", true],
    ["gpt-5-chat-latest", false],
    ["gpt-4.1", false],
    ["gpt-4o-mini", false],
    ["my-finetune", false],
  ])("%s → %s", (id, expected) => {
    expect(isReasoningModel(id)).toBe(expected);
  });
});

describe("registered providers", () => {
  it("answer requests naming their id, before the built-in ones; others stay unknown", () => {
    const seen: string[] = [];
    const registered = {
      id: "recorded",
      resolve: (request: { provider: string; id?: string }, dialect: unknown) => {
        seen.push(`${request.id}/${String(dialect)}`);
        return { ok: false as const, field: "model.id" as const, message: "from the registrant" };
      },
    };
    const providers = [registered];
    expect(resolveModel({ provider: "recorded", id: "t1" }, "action", { providers })).toEqual({
      ok: false,
      field: "model.id",
      message: "from the registrant",
    });
    expect(seen).toEqual(["t1/action"]);
    expect(resolveModel({ provider: "recorded" }, "xml")).toMatchObject({
      ok: false,
      field: "model.provider",
    });
    expect(resolveModel({ provider: "demo" }, "xml", { providers })).toMatchObject({ ok: true });
    expect(seen).toHaveLength(1);
  });
});

describe("stop sequences", () => {
  it("never use a marker the parser needs to see", () => {
    for (const stops of Object.values(DIALECT_STOP_SEQUENCES)) {
      for (const stop of stops) {
        expect(stop.startsWith("\n")).toBe(true);
        expect(stop).not.toMatch(/execute|<\/action>|<end>|§end/);
      }
    }
  });

  it("keep the user's first and add the dialect's while there is room", () => {
    expect(mergeStopSequences(undefined, [])).toBeUndefined();
    expect(mergeStopSequences(["END"], ["\n<results>"])).toEqual(["END", "\n<results>"]);
    expect(mergeStopSequences(["\n<results>"], ["\n<results>"])).toEqual(["\n<results>"]);
    expect(mergeStopSequences(["a", "b", "c", "d"], ["\n<results>"])).toEqual(["a", "b", "c", "d"]);
  });
});
