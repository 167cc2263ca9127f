/**
 * The upstream call on `node:http` (`upstream-call.ts`), through the proxy and on its own:
 * connections kept and reused, an answer compressed against our `accept-encoding: identity`
 * decoded as `fetch` did, an answer that breaks off failing the client's stream and recorded as
 * a provider error, and answers without a body.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import type { StoredRecord } from "../store/store";
import { type ProxyServer, startProxyServer } from "./testing";
import { httpUpstream } from "./upstream-call";

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});

/** A local upstream answering every request with `answer`; counts the connections it got. */
async function upstream(answer: (request: IncomingMessage, response: ServerResponse) => void) {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => answer(request, response));
  });
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  opened.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
  return { url, connections: () => connections };
}

async function proxyTo(url: string): Promise<ProxyServer> {
  const proxy = await startProxyServer({ env: { OPENAI_BASE_URL: `${url}/v1` } });
  opened.push(proxy);
  return proxy;
}

const chat = (proxy: ProxyServer, content = "hello") =>
  fetch(`${proxy.url}/proxy/openai/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-wirescope-dialect": "xml" },
    body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content }] }),
  });

const frame = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;
const ANSWER = `${frame("Hello ")}${frame("there.")}data: [DONE]\n\n`;

async function recorded(proxy: ProxyServer): Promise<StoredRecord[]> {
  await proxy.settled();
  const [summary] = await proxy.store.listTranscripts({ limit: 1 });
  return (summary && (await proxy.store.getTranscript(summary.id)))?.records ?? [];
}
const chunkText = (records: readonly StoredRecord[]) =>
  records.flatMap((record) => (record.kind === "chunk" ? [record.text] : [])).join("");

describe("the upstream call", () => {
  it("keeps its connection to the upstream and reuses it for the next calls", async () => {
    const sse = await upstream((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(ANSWER);
    });
    const proxy = await proxyTo(sse.url);
    for (const content of ["one", "two", "three"])
      expect(await (await chat(proxy, content)).text()).toBe(ANSWER);
    expect(sse.connections()).toBe(1);
  });

  it("decodes an answer compressed anyway (gzip): the client gets the text, without content-encoding, and it is recorded", async () => {
    const gzipped = await upstream((request, response) => {
      // The proxy asks for the body as is; this upstream compresses regardless.
      expect(request.headers["accept-encoding"]).toBe("identity");
      response.writeHead(200, { "content-type": "text/event-stream", "content-encoding": "gzip" });
      response.end(gzipSync(ANSWER));
    });
    const proxy = await proxyTo(gzipped.url);
    const response = await chat(proxy);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toBe(ANSWER);
    expect(chunkText(await recorded(proxy))).toBe("Hello there.");
  });

  it("decodes as leniently as fetch: a gzip without its trailer, an empty one, deflate raw or wrapped", async () => {
    const text = "data: one\n\n";
    const gzipped = gzipSync(text);
    const bodies: Record<string, [string, Buffer]> = {
      // Flushed and ended without the gzip trailer (an SSE stream cut at an event's end).
      "/no-trailer": ["gzip", gzipped.subarray(0, gzipped.length - 8)],
      "/empty": ["gzip", Buffer.alloc(0)],
      "/raw": ["deflate", deflateRawSync(text)],
      "/wrapped": ["deflate", deflateSync(text)],
      "/both": ["deflate, br", brotliCompressSync(deflateRawSync(text))],
    };
    const coded = await upstream((request, response) => {
      const [coding, body] = bodies[request.url ?? ""] ?? ["", Buffer.alloc(0)];
      response.writeHead(request.url === "/empty" ? 429 : 200, { "content-encoding": coding });
      response.end(body);
    });
    const read = async (path: string) => {
      const answer = await httpUpstream(`${coded.url}${path}`, {
        method: "GET",
        headers: new Headers(),
        signal: new AbortController().signal,
      });
      const chunks: Uint8Array[] = [];
      for (;;) {
        const next = await answer.body?.read();
        if (next === undefined || next.done) break;
        chunks.push(next.value);
      }
      return { status: answer.status, text: Buffer.concat(chunks).toString() };
    };
    expect(await read("/no-trailer")).toEqual({ status: 200, text });
    expect(await read("/empty")).toEqual({ status: 429, text: "" });
    expect(await read("/raw")).toEqual({ status: 200, text });
    expect(await read("/wrapped")).toEqual({ status: 200, text });
    expect(await read("/both")).toEqual({ status: 200, text });
  });

  it("refuses an answer stacking more than five codings, as fetch does: a 502 naming it", async () => {
    const stacked = await upstream((_request, response) => {
      response.writeHead(200, { "content-encoding": Array(6).fill("gzip").join(", ") });
      response.end(gzipSync("x"));
    });
    const proxy = await proxyTo(stacked.url);
    const response = await chat(proxy);
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: expect.stringMatching(
        /answer could not be read \(too many content codings \(6; at most 5\)\)/,
      ),
    });
  });

  it("times the call from when it went upstream: its request at 0, its first token after the wait", async () => {
    const slow = await upstream((_request, response) => {
      setTimeout(() => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(
          `${frame("Hi")}data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 5, completion_tokens: 1 } })}\n\ndata: [DONE]\n\n`,
        );
      }, 300);
    });
    const proxy = await proxyTo(slow.url);
    await (await chat(proxy)).text();
    const records = await recorded(proxy);
    expect(records.find((record) => record.kind === "request")).toMatchObject({ t: 0 });
    const firstChunk = records.find((record) => record.kind === "chunk");
    expect(firstChunk?.kind === "chunk" && firstChunk.t).toBeGreaterThanOrEqual(290);
    const metric = records.flatMap((record) =>
      record.kind === "event" && record.event.type === "metric" ? [record.event] : [],
    )[0];
    expect(metric?.step.ttftMs).toBeGreaterThanOrEqual(290);
    expect(metric?.step.durationMs).toBeGreaterThanOrEqual(290);
  });

  it("passes a coding it cannot decode on as sent, header and all", async () => {
    const odd = await upstream((_request, response) => {
      response.writeHead(200, {
        "content-type": "application/octet-stream",
        "content-encoding": "zz",
      });
      response.end(Buffer.from([1, 2, 3]));
    });
    const answer = await httpUpstream(`${odd.url}/x`, {
      method: "GET",
      headers: new Headers(),
      signal: new AbortController().signal,
    });
    expect(answer.headers.get("content-encoding")).toBe("zz");
    const first = await answer.body?.read();
    expect([...(first?.value ?? [])]).toEqual([1, 2, 3]);
    expect((await answer.body?.read())?.done).toBe(true);
  });

  it("an answer that breaks off mid-way breaks the client's stream off and is recorded as a provider error", async () => {
    const breaking = await upstream((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(frame("Half an "));
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const proxy = await proxyTo(breaking.url);
    const response = await chat(proxy);
    const ending = await response.text().then(
      () => "ended as if whole",
      () => "broken off",
    );
    expect(ending).toBe("broken off");
    const records = await recorded(proxy);
    expect(chunkText(records)).toBe("Half an ");
    const events = records.flatMap((record) => (record.kind === "event" ? [record.event] : []));
    expect(events.at(-1)).toMatchObject({
      type: "error",
      code: "provider",
      message: expect.stringMatching(/broke off mid-answer/),
    });
  });

  it("has no body for HEAD and 204, and the status and headers as sent", async () => {
    const empty = await upstream((request, response) => {
      response.writeHead(request.method === "HEAD" ? 200 : 204, "Nothing Here", { "x-kept": "1" });
      response.end();
    });
    const signal = new AbortController().signal;
    const head = await httpUpstream(`${empty.url}/a`, {
      method: "HEAD",
      headers: new Headers(),
      signal,
    });
    expect(head).toMatchObject({ status: 200, body: null });
    const none = await httpUpstream(`${empty.url}/b`, {
      method: "DELETE",
      headers: new Headers(),
      body: new Uint8Array(0),
      signal,
    });
    expect(none).toMatchObject({ status: 204, statusText: "Nothing Here", body: null });
    expect(none.headers.get("x-kept")).toBe("1");
  });
});
