import { createServer, type Server, type ServerResponse } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProviderListing } from "@/lib/providers";
import {
  type FakeProviderServer,
  startFakeProviderServer,
} from "@/lib/providers/testing/fake-provider-server";
import { GET } from "./route";

const KEY = `wirescope-planted-models-${Math.random().toString(36).slice(2)}`;
let fake: FakeProviderServer;

beforeAll(async () => {
  fake = await startFakeProviderServer();
  for (const name of [
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GOOGLE_GENERATIVE_AI_API_KEY",
    "OPENROUTER_API_KEY",
  ]) {
    delete process.env[name];
  }
  Object.assign(process.env, {
    ANTHROPIC_API_KEY: KEY,
    WIRESCOPE_COMPAT_BASE_URL: `${fake.url}/v1`,
    WIRESCOPE_COMPAT_API_KEY: KEY,
    WIRESCOPE_COMPAT_NAME: "My vLLM",
  });
});

afterAll(() => fake.close());

async function providers(): Promise<ProviderListing[]> {
  const response = await GET(new Request("http://localhost/api/models"));
  expect(response.status).toBe(200);
  return ((await response.json()) as { providers: ProviderListing[] }).providers;
}

describe("GET /api/models", () => {
  it("lists every provider, configured or with what to set, and never a key", async () => {
    const listed = await providers();
    expect(listed.map((provider) => provider.id)).toEqual([
      "demo",
      "openai",
      "anthropic",
      "google",
      "compat",
      "ollama",
      "lmstudio",
      "vllm",
      "llamacpp",
      "openrouter",
    ]);
    const byId = new Map(listed.map((provider) => [provider.id, provider]));
    expect(byId.get("demo")).toMatchObject({
      configured: true,
      models: [{ id: "scripted", source: "builtin" }],
      freeText: false,
    });
    expect(byId.get("openai")).toMatchObject({
      configured: false,
      configure: "set OPENAI_API_KEY",
    });
    expect(byId.get("openrouter")).toMatchObject({
      configured: false,
      configure: "set OPENROUTER_API_KEY",
    });
    const anthropic = byId.get("anthropic");
    expect(anthropic).toMatchObject({ configured: true, freeText: true });
    expect(anthropic?.models.length).toBeGreaterThan(0);
    expect(anthropic?.models.every((model) => model.source === "suggested")).toBe(true);
    expect(JSON.stringify(listed)).not.toContain(KEY);
  });

  it("asks an OpenAI-compatible server for its models, with its key", async () => {
    const compat = (await providers()).find((provider) => provider.id === "compat");
    expect(compat).toMatchObject({ label: "My vLLM", configured: true, baseURL: `${fake.url}/v1` });
    expect(compat?.models).toContainEqual({ id: "scripted", source: "server", priced: false });
    expect(compat?.error).toBeUndefined();
    const asked = fake.requests.filter((request) => request.path === "/v1/models").at(-1);
    expect(asked?.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  /** Serves `answer` as the compat server's `/models` while `check` runs. */
  async function withModelsServer(
    answer: (response: ServerResponse) => void,
    check: (compat: ProviderListing | undefined) => void,
  ): Promise<void> {
    const server: Server = createServer((_request, response) => answer(response));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    process.env.WIRESCOPE_COMPAT_BASE_URL = `http://127.0.0.1:${port}/v1`;
    try {
      check((await providers()).find((provider) => provider.id === "compat"));
    } finally {
      process.env.WIRESCOPE_COMPAT_BASE_URL = `${fake.url}/v1`;
      server.closeAllConnections();
      server.close();
    }
  }

  it("offers each listed id once, and only ids a run can name", async () => {
    const listed = ["a", "a", "", "x".repeat(257), "two\nlines", "y".repeat(256), "b", 7];
    await withModelsServer(
      (response) => response.end(JSON.stringify({ data: listed.map((id) => ({ id })) })),
      (compat) => {
        expect(compat?.error).toBeUndefined();
        expect(compat?.models.map((model) => model.id)).toEqual(["a", "y".repeat(256), "b"]);
      },
    );
  });

  it("does not read a model list past its cap", async () => {
    const megabyte = "a".repeat(1024 * 1024);
    await withModelsServer(
      (response) => {
        // An answer that goes on: 9 MB of one id's text, then never an end.
        response.write('{"data": [{"id": "');
        for (let sent = 0; sent < 9; sent += 1) response.write(megabyte);
      },
      (compat) => {
        expect(compat).toMatchObject({ configured: true, models: [] });
        expect(compat?.error).toMatch(/answered with more than 8 MB when asked for models/);
      },
    );
  });

  it("fails soft, within the timeout, when a server does not answer", async () => {
    const silent: Server = createServer(() => {}); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    process.env.WIRESCOPE_COMPAT_BASE_URL = `http://127.0.0.1:${port}/v1`;
    try {
      // The message proves the route's own timeout ended the wait (speed is not asserted here).
      const compat = (await providers()).find((provider) => provider.id === "compat");
      expect(compat).toMatchObject({ configured: true, models: [] });
      expect(compat?.error).toMatch(/did not list its models within 1500 ms/);
    } finally {
      process.env.WIRESCOPE_COMPAT_BASE_URL = `${fake.url}/v1`;
      silent.closeAllConnections();
      silent.close();
    }
  });

  it("says of each model whether it has a price, so the picker can say none is known", async () => {
    const before = process.env.WIRESCOPE_PRICES;
    process.env.WIRESCOPE_PRICES = JSON.stringify({
      "openrouter/qwen/qwen3-coder": { input: 1, output: 2 },
    });
    try {
      const byId = new Map((await providers()).map((provider) => [provider.id, provider]));
      const priced = (provider: string) =>
        Object.fromEntries(
          (byId.get(provider)?.models ?? []).map((model) => [
            model.id,
            (model as { priced?: unknown }).priced,
          ]),
        );
      expect(priced("demo")).toEqual({ scripted: true });
      expect(priced("openai")).toMatchObject({
        "gpt-5.5": true,
        "gpt-5.4-mini": true,
        "gpt-4.1": true,
        "gpt-6-sol": false,
        "gpt-6-luna": false,
      });
      expect(priced("google")).toMatchObject({ "gemini-3.5-flash": true, "gemini-2.5-pro": true });
      // A server's price (WIRESCOPE_PRICES) counts; a model with none in any table is unpriced.
      expect(priced("openrouter")).toMatchObject({
        "qwen/qwen3-coder": true,
        "openai/gpt-5.5": false,
      });
      for (const provider of byId.values())
        for (const model of provider.models)
          expect(typeof (model as { priced?: unknown }).priced, `${provider.id}/${model.id}`).toBe(
            "boolean",
          );
    } finally {
      if (before === undefined) delete process.env.WIRESCOPE_PRICES;
      else process.env.WIRESCOPE_PRICES = before;
    }
  });
});
