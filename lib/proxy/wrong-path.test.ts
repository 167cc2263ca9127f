import { describe, expect, it } from "vitest";
import { wrongProxyPath } from "./wrong-path";

describe("wrongProxyPath", () => {
  it("tells an agent whose base URL lacks /v1 where its base URL is", () => {
    expect(wrongProxyPath("/proxy/openai/chat/completions")).toBe(
      "path: \"/proxy/openai/chat/completions\" is not under the openai proxy's base URL /proxy/openai/v1 (set the agent's base URL to end in /v1).",
    );
  });

  it("says what the base URL itself is for", () => {
    expect(wrongProxyPath("/proxy/anthropic/v1/")).toMatch(
      /^path: \/proxy\/anthropic\/v1 is the anthropic proxy's base URL: an agent calls paths under it/,
    );
  });

  it("names the proxies when the name is unknown or missing", () => {
    expect(wrongProxyPath("/proxy/gemini/v1/x")).toMatch(
      /^path: no proxy for "gemini" in .*openai, anthropic, compat/,
    );
    expect(wrongProxyPath("/proxy")).toMatch(
      /^path: a proxy name in "\/proxy"; a base URL is \/proxy\/<name>\/v1/,
    );
  });

  it("keeps a long path short", () => {
    expect(wrongProxyPath(`/proxy/openai/${"a".repeat(10_000)}`).length).toBeLessThan(400);
  });
});
