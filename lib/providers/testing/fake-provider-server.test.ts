import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviderServer, startFakeProviderServer } from "./fake-provider-server";
import { applyStop, behaviourOf, detectDialect, pieces } from "./fake-script";

let server: FakeProviderServer;
beforeAll(async () => {
  server = await startFakeProviderServer();
});
afterAll(() => server.close());

describe("the fake provider server", () => {
  it("listens on loopback and lists its models OpenAI-style", async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server.url}/v1/models`);
    const body = (await response.json()) as { data: { id: string }[] };
    expect(body.data.map((model) => model.id)).toContain("fail-401");
  });

  it("streams OpenAI chat chunks ending in a usage chunk and [DONE]", async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({
        model: "scripted",
        stream: true,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    const text = await response.text();
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(text).toContain('"delta":{"content":');
    expect(text).toMatch(/"usage":\{"prompt_tokens":\d+/);
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });

  it("streams Anthropic events from message_start to message_stop", async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      body: JSON.stringify({
        model: "scripted",
        stream: true,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    const events = [...(await response.text()).matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe("message_start");
    expect(events).toContain("content_block_delta");
    expect(events.at(-2)).toBe("message_delta");
    expect(events.at(-1)).toBe("message_stop");
  });

  it("answers a request that does not stream with one JSON body, in each format", async () => {
    const ask = (path: string) =>
      fetch(`${server.url}/v1/${path}`, {
        method: "POST",
        body: JSON.stringify({ model: "reasoning", messages: [{ role: "user", content: "hi" }] }),
      }).then((response) => response.json() as Promise<Record<string, unknown>>);
    const openai = (await ask("chat/completions")) as {
      choices: { message: { content: string; reasoning_content: string } }[];
    };
    expect(openai.choices[0]?.message.content).toContain("<respond>");
    expect(openai.choices[0]?.message.reasoning_content).toContain("step by step");
    const anthropic = (await ask("messages")) as { content: { type: string }[] };
    expect(anthropic.content.map((block) => block.type)).toEqual(["thinking", "text"]);
  });

  it("streams reasoning deltas before the text for the reasoning model", async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      body: JSON.stringify({
        model: "reasoning",
        stream: true,
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    const text = await response.text();
    expect(text.indexOf('"reasoning_content"')).toBeGreaterThan(0);
    expect(text.indexOf('"reasoning_content"')).toBeLessThan(text.indexOf('"content":"<'));
  });

  it("answers failures in each format's error shape", async () => {
    const response = await fetch(`${server.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "echo-me" },
      body: JSON.stringify({ model: "fail-401", messages: [] }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      type: "error",
      error: { type: "authentication_error", message: "invalid x-api-key: echo-me" },
    });
  });
});

describe("the fake script", () => {
  it("picks a behaviour by model id prefix", () => {
    expect(behaviourOf("stall")).toBe("stall");
    expect(behaviourOf("fail-429-fast")).toBe("fail-429");
    expect(behaviourOf("gpt-5.5")).toBe("scripted");
  });

  it("reads the dialect from Wirescope's system prompt", () => {
    const messages = [{ role: "user" as const, text: "hi" }];
    expect(detectDialect({ system: "Protocol (action):", messages })).toBe("action");
    expect(detectDialect({ system: "", messages })).toBe("xml");
  });

  it("cuts at the earliest stop sequence and drops it", () => {
    expect(applyStop("a</execute>\n<results>Z", ["\n<results>", "Z"])).toEqual({
      text: "a</execute>",
      stoppedBy: "\n<results>",
    });
    expect(applyStop("abc", ["z"])).toEqual({ text: "abc" });
    expect(pieces("a😀bc", 2)).toEqual(["a😀", "bc"]);
  });
});
