/**
 * The capture proxy driven by real clients (fetch in the OpenAI format, the AI SDK's
 * OpenAI-compatible and Anthropic providers) against the in-repo fake upstream.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol/events";
import { mergePieces } from "../protocol/merge";
import {
  type FakeProviderServer,
  startFakeProviderServer,
} from "../providers/testing/fake-provider-server";
import { FAKE_REASONING } from "../providers/testing/fake-script";
import type { StoredRecord, Transcript } from "../store/store";
import { type ProxyServer, startProxyServer } from "./testing";

const CONFIGURED_OPENAI = "sk-configured-openai-0123456789";
const CONFIGURED_ANTHROPIC = "sk-ant-configured-0123456789";

let fake: FakeProviderServer;
let proxy: ProxyServer;

beforeAll(async () => {
  fake = await startFakeProviderServer({ chunkChars: 5 });
  proxy = await startProxyServer({
    env: {
      OPENAI_BASE_URL: `${fake.url}/v1`,
      OPENAI_API_KEY: CONFIGURED_OPENAI,
      ANTHROPIC_BASE_URL: `${fake.url}/v1`,
      ANTHROPIC_API_KEY: CONFIGURED_ANTHROPIC,
      WIRESCOPE_COMPAT_BASE_URL: `${fake.url}/v1`,
    },
    maxBodyBytes: 64 * 1024,
  });
});
afterAll(async () => {
  await proxy.close();
  await fake.close();
});

const via = (name: string) => `${proxy.url}/proxy/${name}/v1`;
const direct = () => `${fake.url}/v1`;

function chat(base: string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

/** SSE frames as the client received them. */
const frames = (text: string) => text.split("\n\n").filter((frame) => frame.trim() !== "");

/** The content deltas of an OpenAI stream, read here independently of the proxy's decoder. */
function contentOf(sse: string): string {
  return frames(sse)
    .map((frame) => frame.replace(/^data: /, ""))
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data).choices?.[0]?.delta?.content ?? "")
    .join("");
}

async function newest(): Promise<Transcript> {
  await proxy.settled();
  const [summary] = await proxy.store.listTranscripts({ limit: 1 });
  const transcript = summary && (await proxy.store.getTranscript(summary.id));
  if (!transcript) throw new Error("no transcript was captured");
  return transcript;
}

const chunksOf = (records: readonly StoredRecord[], turn = 0) =>
  records
    .flatMap((record) => (record.kind === "chunk" && record.turn === turn ? [record.text] : []))
    .join("");
const eventsOf = (records: readonly StoredRecord[]): ProtocolEvent[] =>
  mergePieces(records.flatMap((record) => (record.kind === "event" ? [record.event] : [])));

const SYSTEM_XML = { role: "system", content: "Protocol (xml): think, then execute." };

describe("forwarding", () => {
  it("a long first message makes a title cut before an emoji, never inside it", async () => {
    const content = `${"x".repeat(78)}👩‍👩‍👧 and more words after it`;
    const body = {
      model: "scripted",
      stream: true,
      messages: [SYSTEM_XML, { role: "user", content }],
    };
    await (await chat(via("openai"), body)).text();
    const { meta } = await newest();
    expect(meta.title).toBe(`${"x".repeat(78)}…`);
  });

  it("streams the same bytes and frames as a direct call, and records the turn", async () => {
    const body = {
      model: "scripted",
      stream: true,
      messages: [SYSTEM_XML, { role: "user", content: "list the files" }],
    };
    const directText = await (await chat(direct(), body)).text();
    const response = await chat(via("openai"), body);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const proxiedText = await response.text();
    expect(proxiedText).toBe(directText);
    expect(frames(proxiedText)).toHaveLength(frames(directText).length);

    const { meta, records } = await newest();
    expect(meta).toMatchObject({ source: "capture", dialect: "xml", title: "list the files" });
    expect(meta.model).toEqual({ provider: "openai", id: "scripted" });
    expect(chunksOf(records)).toBe(contentOf(proxiedText));
    const request = records.find((record) => record.kind === "request");
    expect(request).toMatchObject({
      provider: "openai",
      model: "scripted",
      settings: { stream: true, capture: { dialect: "xml", chosenBy: "detected" } },
    });
    const types = eventsOf(records).map((event) => event.type);
    expect(types).toEqual(["user", "think", "call", "execute", "metric"]);
    // The upstream's last frame reports usage: the turn's metric carries it as the provider's.
    const usage = frames(proxiedText)
      .map((frame) => frame.replace(/^data: /, ""))
      .filter((data) => data !== "[DONE]")
      .map((data) => JSON.parse(data) as { usage?: unknown })
      .find((frame) => frame.usage !== undefined)?.usage as
      | { prompt_tokens: number; completion_tokens: number }
      | undefined;
    expect(usage).toBeDefined();
    const metric = eventsOf(records).find((event) => event.type === "metric");
    expect(metric).toMatchObject({
      tokenSource: "provider",
      step: { input: usage?.prompt_tokens, output: usage?.completion_tokens },
    });
  });

  it("forwards a body nested past the limit but records nothing of it", async () => {
    const before = (await proxy.store.listTranscripts({ limit: 500 })).length;
    let deep: unknown = 1;
    for (let level = 0; level < 2000; level++) deep = [deep];
    const body = {
      model: "scripted",
      stream: true,
      messages: [SYSTEM_XML, { role: "user", content: "list the files" }],
      x: deep,
    };
    const response = await chat(via("openai"), body);
    expect(response.status).toBe(200);
    expect(contentOf(await response.text())).not.toBe("");
    await proxy.settled();
    expect(await proxy.store.listTranscripts({ limit: 500 })).toHaveLength(before);
  });

  it("passes a whole JSON answer through and records its text", async () => {
    const body = { model: "scripted", messages: [{ role: "user", content: "hello there" }] };
    const directJson = await (await chat(direct(), body)).text();
    const proxied = await chat(via("compat"), body, { "x-wirescope-dialect": "xml" });
    expect(await proxied.text()).toBe(directJson);
    const { records } = await newest();
    expect(chunksOf(records)).toBe(JSON.parse(directJson).choices[0].message.content);
    expect(records.find((record) => record.kind === "request")).toMatchObject({
      settings: {
        capture: { chosenBy: "header", reason: "named by the x-wirescope-dialect header" },
      },
    });
  });

  it("passes upstream errors through with status, headers and body, and records them", async () => {
    const body = { model: "fail-429", stream: true, messages: [{ role: "user", content: "hi" }] };
    const directResponse = await chat(direct(), body);
    const proxied = await chat(via("openai"), body);
    expect(proxied.status).toBe(429);
    expect(proxied.headers.get("retry-after")).toBe("7");
    expect(await proxied.text()).toBe(await directResponse.text());
    const errors = eventsOf((await newest()).records).filter((event) => event.type === "error");
    expect(errors).toMatchObject([{ code: "provider" }]);
    expect(JSON.stringify(errors)).toContain("The upstream answered 429");
  });

  it("forwards other paths (GET /models) with their query, recording nothing", async () => {
    const before = (await proxy.store.listTranscripts()).length;
    const response = await fetch(`${via("openai")}/models?limit=3`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(await (await fetch(`${direct()}/models`)).json());
    expect(fake.requests.at(-1)?.path).toBe("/v1/models");
    expect((await proxy.store.listTranscripts()).length).toBe(before);
  });

  it("answers 404 naming an unknown provider, 503 for one not configured, 400 for a bad dialect, 413 for a big body", async () => {
    const unknown = await chat(via("nowhere"), {});
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toContain('"nowhere"');
    const bare = await startProxyServer({ env: {} });
    const compat = await chat(`${bare.url}/proxy/compat/v1`, {});
    expect(compat.status).toBe(503);
    expect(await compat.json()).toEqual({
      error: "provider: compat is not configured: set WIRESCOPE_COMPAT_BASE_URL.",
    });
    await bare.close();
    const dialect = await chat(`${via("openai")}`, {}, { "x-wirescope-dialect": "yaml" });
    expect(dialect.status).toBe(400);
    expect(((await dialect.json()) as { error: string }).error).toMatch(/^x-wirescope-dialect:/);
    const big = await chat(via("openai"), { model: "scripted", padding: "x".repeat(70_000) });
    expect(big.status).toBe(413);
  });

  it("tells an upstream it cannot reach from one whose answer it cannot read (502 both)", async () => {
    const oversized = createServer((_request, response) => {
      response.writeHead(200, { "x-huge": "h".repeat(70_000) });
      response.end("{}");
    });
    await new Promise<void>((resolve) => oversized.listen(0, "127.0.0.1", resolve));
    const { port } = oversized.address() as AddressInfo;
    const unreadable = await startProxyServer({
      env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    const answer = await chat(`${unreadable.url}/proxy/openai/v1`, { model: "m", messages: [] });
    expect(answer.status).toBe(502);
    expect(((await answer.json()) as { error: string }).error).toMatch(
      /^upstream: the openai upstream's answer could not be read \(/,
    );
    await unreadable.close();
    await new Promise<void>((resolve) => oversized.close(() => resolve()));
    // Nothing listens on this port any more.
    const gone = await startProxyServer({
      env: { OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1` },
    });
    const refused = await chat(`${gone.url}/proxy/openai/v1`, { model: "m", messages: [] });
    expect(refused.status).toBe(502);
    expect(((await refused.json()) as { error: string }).error).toMatch(
      /^upstream: could not reach the openai upstream \(/,
    );
    await gone.close();
  });

  it("a client that goes away aborts the upstream request", async () => {
    const response = await chat(
      via("openai"),
      { model: "stall", stream: true, messages: [{ role: "user", content: "list the files" }] },
      {},
    );
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const upstream = fake.requests.at(-1);
    await reader.cancel();
    expect(await upstream?.closed).toBe("aborted");
    const events = eventsOf((await newest()).records);
    expect(events.at(-1)).toMatchObject({ type: "interrupt", reason: "disconnect" });
  });
});

describe("with the AI SDK", () => {
  it("OpenAI-compatible provider: same text as direct, chunks join to it, second turn joins with results", async () => {
    const system = "Protocol (xml): think, then execute.";
    const model = (baseURL: string) =>
      createOpenAICompatible({
        name: "agent",
        baseURL,
        apiKey: "sk-client-own-key-000111",
      }).chatModel("scripted");
    const prompt = "list the files";
    const directText = await streamText({ model: model(direct()), system, prompt }).text;
    const proxiedText = await streamText({ model: model(via("compat")), system, prompt }).text;
    expect(proxiedText).toBe(directText);
    expect(fake.requests.at(-1)?.headers.authorization).toBe("Bearer sk-client-own-key-000111");
    const first = await newest();
    expect(chunksOf(first.records)).toBe(proxiedText);
    const call = eventsOf(first.records).find((event) => event.type === "call");
    expect(call).toMatchObject({ call: { name: "list" } });

    // The agent ran the tool itself and sends the result back in its next request.
    const results =
      '<results>\n[{"tool":"list","status":"success","content":["notes.md"]}]\n</results>';
    const second = await streamText({
      model: model(via("compat")),
      system,
      messages: [
        { role: "user", content: prompt },
        { role: "assistant", content: proxiedText },
        { role: "user", content: results },
      ],
    }).text;
    const joined = await newest();
    expect(joined.meta.id).toBe(first.meta.id);
    expect(chunksOf(joined.records, 1)).toBe(second);
    const result = eventsOf(joined.records).find((event) => event.type === "result");
    expect(result).toMatchObject({
      callId: call?.type === "call" ? call.call.id : "?",
      turn: 0,
      payload: { tool: "list", status: "success", content: ["notes.md"] },
    });
  });

  it("Anthropic provider: reasoning deltas become think text; the text matches", async () => {
    const model = (baseURL: string) =>
      createAnthropic({ baseURL, apiKey: "sk-ant-client-own-000111" }).messages("reasoning");
    const prompt = "hello";
    const directResult = await streamText({ model: model(direct()), prompt }).text;
    const proxied = streamText({ model: model(via("anthropic")), prompt });
    expect(await proxied.text).toBe(directResult);
    expect(await proxied.reasoningText).toBe(FAKE_REASONING);
    const { meta, records } = await newest();
    expect(meta.model.provider).toBe("anthropic");
    expect(chunksOf(records)).toBe(`<think>${FAKE_REASONING}</think>\n${directResult}`);
    const think = eventsOf(records).find((event) => event.type === "think");
    expect(think).toMatchObject({ content: FAKE_REASONING.trim() });
  });
});

describe("sessions", () => {
  it("calls with one x-wirescope-session join one transcript, whatever their messages", async () => {
    const session = { "x-wirescope-session": "agent-7" };
    const ask = (content: string) =>
      chat(via("openai"), { model: "scripted", messages: [{ role: "user", content }] }, session);
    await (await ask("hello one")).text();
    const first = await newest();
    await (await ask("hello two")).text();
    const second = await newest();
    expect(second.meta.id).toBe(first.meta.id);
    const users = eventsOf(second.records).filter((event) => event.type === "user");
    expect(users.map((event) => (event.type === "user" ? event.content : ""))).toEqual([
      "hello one",
      "hello two",
    ]);
  });
});

describe("keys", () => {
  it("a key planted in every header and in the body is stored nowhere", async () => {
    const planted = "planted-secret-7Hq2Zx9Kp4";
    const headers = {
      authorization: `Bearer ${planted}`,
      "x-api-key": planted,
      "api-key": planted,
      "x-goog-api-key": planted,
      "openai-organization": planted,
      "openai-project": planted,
      cookie: `session=${planted}`,
      "x-custom-token": planted,
      "user-agent": `agent/1.0 ${planted}`,
    };
    const body = {
      model: "fail-401",
      stream: true,
      user: planted,
      metadata: { api_key: planted },
      messages: [{ role: "user", content: `my key is ${planted}, list the files` }],
    };
    const refused = await chat(via("openai"), body, headers);
    expect(refused.status).toBe(401);
    // The upstream echoed the credentials it got (as some do): the client still sees that.
    expect(await refused.text()).toContain(planted);
    await (await chat(via("openai"), { ...body, model: "scripted" }, headers)).text();
    // With no credentials of its own, the client gets the server's key upstream.
    await (
      await chat(via("openai"), { model: "fail-401", messages: [{ role: "user", content: "x" }] })
    ).text();
    expect(fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${CONFIGURED_OPENAI}`);
    await proxy.settled();

    const everything: unknown[] = [];
    for (const summary of await proxy.store.listTranscripts({ limit: 500 })) {
      everything.push(summary, await proxy.store.getTranscript(summary.id));
    }
    const stored = JSON.stringify(everything);
    expect(stored).toContain("[redacted]");
    expect(stored).not.toContain(planted);
    expect(stored).not.toContain(CONFIGURED_OPENAI);
    expect(stored).not.toContain(CONFIGURED_ANTHROPIC);
  });

  it("a key only the body holds, in a credential-named field, is stored nowhere", async () => {
    const planted = "zz11yy22xx33ww44vv55";
    const body = {
      model: "scripted",
      metadata: { api_key: planted },
      messages: [{ role: "user", content: "list the files, body-only key" }],
    };
    await (await chat(via("openai"), body)).text();
    await proxy.settled();
    const stored = JSON.stringify(await proxy.store.getTranscript((await newest()).meta.id));
    expect(stored).toContain('"api_key":"[redacted]"');
    expect(stored).not.toContain(planted);
  });
});
