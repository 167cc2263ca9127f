import { request as httpRequest } from "node:http";
import { expect, test } from "@playwright/test";

/**
 * The API as the real server answers it, where Next's own request handling shows: a JSON body
 * is read as it arrives (Next's request interception, `proxy.ts`, would read all of it first),
 * and methods no route serves get JSON answers.
 */

/** Sends `head` of a body that says it is longer, keeps it open, and resolves with the answer. */
function openBody(
  baseURL: string,
  path: string,
  head: Uint8Array,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; sent: number }> {
  const url = new URL(path, baseURL);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": String(head.length + 1000),
          ...headers,
        },
      },
      (response) => {
        let body = "";
        response.on("data", (data: Buffer) => {
          body += data.toString();
        });
        response.on("end", () => {
          request.destroy();
          resolve({ status: response.statusCode ?? 0, body, sent: head.length });
        });
      },
    );
    request.on("error", reject);
    request.write(head);
  });
}

test("a JSON body is read as it arrives: bad bytes are refused while the body is still open", async ({
  baseURL,
}) => {
  const head = Uint8Array.from([...new TextEncoder().encode('{"message":"'), 0xff]);
  const answer = await openBody(baseURL ?? "", "/api/runs", head);
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.body)).toEqual({ error: "body: not valid UTF-8." });
});

test("a request with a body naming a foreign host is refused with 421 by the route itself", async ({
  baseURL,
}) => {
  const answer = await openBody(baseURL ?? "", "/api/runs", new TextEncoder().encode("{"), {
    host: "rebound.example",
  });
  expect(answer.status).toBe(421);
  expect(JSON.parse(answer.body)).toEqual({
    error: expect.stringContaining('"rebound.example" is not served here'),
  });
});

test("OPTIONS, HEAD without GET, and unknown methods get JSON errors", async ({ request }) => {
  const options = await request.fetch("/api/runs", { method: "OPTIONS" });
  expect(options.status()).toBe(405);
  expect(options.headers().allow).toBe("POST, GET, HEAD");
  expect(await options.json()).toEqual({
    error: "method: OPTIONS is not served here; use POST or GET.",
  });
  expect(options.headers()["x-content-type-options"]).toBe("nosniff");

  const head = await request.fetch("/api/runs/no-such-run/stop", { method: "HEAD" });
  expect(head.status()).toBe(405);
  expect(head.headers().allow).toBe("POST");

  // No route has it: answered by the server itself, before Next (e2e/request-line.spec.ts).
  const unknown = await request.fetch("/api/transcripts", { method: "PROPFIND" });
  expect(unknown.status()).toBe(405);
  expect(unknown.headers().allow).toBe("GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS");
  expect(await unknown.json()).toEqual({
    error: expect.stringMatching(/^method: PROPFIND is not served here/),
  });
});

test("an agent whose base URL lacks /v1 is told where the proxy's base URL is, in JSON", async ({
  request,
}) => {
  // `OPENAI_BASE_URL=…/proxy/openai`: the SDK posts to /proxy/openai/chat/completions. It got
  // Next's HTML 404 page, which an SDK reports as a parse error naming nothing.
  const body = { model: "m", messages: [{ role: "user", content: "hi" }] };
  const missing = await request.post("/proxy/openai/chat/completions", { data: body });
  expect(missing.status()).toBe(404);
  expect(await missing.json()).toEqual({
    error: expect.stringContaining("/proxy/openai/v1"),
  });
  const unknown = await request.get("/proxy/gemini/v1/models");
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error).toMatch(/no proxy for "gemini"/);
  const bare = await request.get("/proxy/anthropic/v1");
  expect(bare.status()).toBe(404);
  expect((await bare.json()).error).toContain("/proxy/anthropic/v1");
});
