import { describe, expect, it } from "vitest";
import { PROXY_NAMES } from "./names";
import { resolveUpstream, UPSTREAM_NAMES } from "./upstreams";

describe("resolveUpstream", () => {
  it("the page's list of names is the server's", () => {
    expect([...PROXY_NAMES]).toEqual(UPSTREAM_NAMES);
  });

  it("uses each provider's base URL variable and key, defaults where there is none", () => {
    const env = {
      OPENAI_API_KEY: "sk-a",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:9/v1/",
      OPENROUTER_API_KEY: "or-key",
    };
    expect(resolveUpstream("openai", env)).toEqual({
      ok: true,
      upstream: {
        name: "openai",
        format: "openai",
        baseURL: "https://api.openai.com/v1",
        key: "sk-a",
        headers: {},
      },
    });
    expect(resolveUpstream("anthropic", env)).toMatchObject({
      upstream: { format: "anthropic", baseURL: "http://127.0.0.1:9/v1" },
    });
    expect(resolveUpstream("ollama", env)).toMatchObject({
      upstream: { baseURL: "http://127.0.0.1:11434/v1", headers: {} },
    });
    expect(resolveUpstream("openrouter", env)).toMatchObject({
      upstream: { key: "or-key", headers: { "X-Title": "Wirescope" } },
    });
  });

  it("reads Anthropic's own host without /v1 as its API, as the playground's provider does", () => {
    for (const base of ["https://api.anthropic.com", "https://api.anthropic.com/"])
      expect(resolveUpstream("anthropic", { ANTHROPIC_BASE_URL: base })).toMatchObject({
        upstream: { baseURL: "https://api.anthropic.com/v1" },
      });
    // Any other base URL is taken as it is (a gateway's path is its own).
    expect(
      resolveUpstream("anthropic", { ANTHROPIC_BASE_URL: "https://gateway.example/anthropic" }),
    ).toMatchObject({ upstream: { baseURL: "https://gateway.example/anthropic" } });
  });

  it("names an unknown provider, and what to set for an unconfigured one", () => {
    expect(resolveUpstream("nope", {})).toMatchObject({ ok: false, status: 404 });
    expect(resolveUpstream("compat", {})).toMatchObject({ ok: false, status: 503 });
  });
});
