import { expect, test } from "@playwright/test";
import { parseRawAnswer, type RawAnswer, sendRaw } from "../scripts/raw-http.testing";

/**
 * Request lines Next answers badly before any route runs, sent on a raw socket to the server
 * users start (`npm start`, which the e2e suite runs): the server answers them itself with a
 * JSON 4xx naming what is wrong (scripts/request-guard.mjs). Before, TRACE and `OPTIONS *` got
 * Next's text/plain 500, CONNECT a closed connection, and `GET http://evil.example/` a 308 to
 * that host.
 */

/** Sends `requestLine` (and a Host naming the server) on a new connection; the whole answer. */
async function send(baseURL: string, requestLine: string): Promise<RawAnswer> {
  const url = new URL(baseURL);
  const text = `${requestLine}\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`;
  return parseRawAnswer(await sendRaw(Number(url.port), url.hostname, text));
}

const ALLOW = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

for (const [requestLine, method] of [
  ["TRACE / HTTP/1.1", "TRACE"],
  ["TRACE /api/transcripts HTTP/1.1", "TRACE"],
  ["CONNECT 127.0.0.1:22 HTTP/1.1", "CONNECT"],
  ["PROPFIND / HTTP/1.1", "PROPFIND"],
  ["FOO /api/runs HTTP/1.1", "FOO"],
] as const) {
  test(`${requestLine}: JSON 405 with Allow, naming the method`, async ({ baseURL }) => {
    const answer = await send(baseURL ?? "", requestLine);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe(ALLOW);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answer.body)).toEqual({
      error: `method: ${method} is not served here; use GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.`,
    });
  });
}

for (const [requestLine, target] of [
  ["GET http://evil.example/ HTTP/1.1", "http://evil.example/"],
  ["GET http://evil.example/api/transcripts HTTP/1.1", "http://evil.example/api/transcripts"],
  ["OPTIONS * HTTP/1.1", "*"],
] as const) {
  test(`${requestLine}: JSON 400 naming the request target, no redirect`, async ({ baseURL }) => {
    const answer = await send(baseURL ?? "", requestLine);
    expect(answer.status).toBe(400);
    expect(answer.headers.location).toBeUndefined();
    expect(JSON.parse(answer.body)).toEqual({
      error: `request target: ${JSON.stringify(target)} is not a path; send the path alone, as in "GET /api/transcripts HTTP/1.1".`,
    });
  });
}

test("an origin-form request still reaches the app", async ({ baseURL }) => {
  const answer = await send(baseURL ?? "", "GET /api/transcripts?limit=1 HTTP/1.1");
  expect(answer.status).toBe(200);
  expect(answer.headers["content-type"]).toContain("application/json");
});

test("a request asking to upgrade (h2c, as curl --http2 asks; a WebSocket) is answered as any other", async ({
  baseURL,
}) => {
  const url = new URL(baseURL ?? "");
  for (const upgrade of ["h2c", "websocket"]) {
    // Before, Next's upgrade listener closed such a connection without a word.
    const text = `GET /api/transcripts?limit=1 HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade, HTTP2-Settings, close\r\nUpgrade: ${upgrade}\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n`;
    const answer = parseRawAnswer(await sendRaw(Number(url.port), url.hostname, text));
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toContain("application/json");
  }
  const trace = `TRACE / HTTP/1.1\r\nHost: ${url.host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`;
  expect(parseRawAnswer(await sendRaw(Number(url.port), url.hostname, trace)).status).toBe(405);
});
