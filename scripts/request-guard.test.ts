import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseRawAnswer, sendRaw } from "./raw-http.testing";
import { guardRequests, parseErrorProblem, SERVED_METHODS } from "./request-guard.mjs";

/**
 * `npm start`'s server answers a method no route has, CONNECT and a request target that is not a
 * path itself (JSON 405/400) and hands the rest on. Here the "rest" is a stand-in for Next that
 * answers 200 with the method and target it was given; e2e/request-line.spec.ts sends the same
 * requests to the real server.
 */
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer();
  server.on(
    "request",
    guardRequests(server, (request, response) => {
      // `/echo` reads the body first (as a route that accepts it does); the rest answer at once.
      if (request.url !== "/echo") {
        response.end(`next: ${request.method} ${request.url}`);
        return;
      }
      let body = "";
      request.setEncoding("utf8");
      request.on("data", (piece: string) => {
        body += piece;
      });
      request.on("end", () => response.end(`read: ${body}`));
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const raw = (text: string | Uint8Array) => sendRaw(port, "127.0.0.1", text);
const parse = parseRawAnswer;

const line = (requestLine: string, extra = "") =>
  `${requestLine}\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}\r\n`;

const ALLOW = SERVED_METHODS.join(", ");

describe("the request guard of npm start", () => {
  it.each([
    ["TRACE / HTTP/1.1", "TRACE"],
    ["PROPFIND /api/transcripts HTTP/1.1", "PROPFIND"],
    ["CONNECT 127.0.0.1:22 HTTP/1.1", "CONNECT"],
    // Not a method Node knows: refused by its parser, worded here all the same.
    ["FOO /api/runs HTTP/1.1", "FOO"],
  ])("%s: 405 with Allow, naming the method", async (requestLine, method) => {
    const answer = parse(await raw(line(requestLine)));
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe(ALLOW);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["x-content-type-options"]).toBe("nosniff");
    expect(JSON.parse(answer.body)).toEqual({
      error: `method: ${method} is not served here; use GET, HEAD, POST, PUT, PATCH, DELETE or OPTIONS.`,
    });
  });

  it.each([
    ["GET http://evil.example/ HTTP/1.1", "http://evil.example/"],
    ["OPTIONS * HTTP/1.1", "*"],
    ["TRACE http://evil.example/ HTTP/1.1", "http://evil.example/"],
    // Refused by Node's parser (no leading slash), worded here.
    ["GET evil HTTP/1.1", "evil"],
  ])("%s: 400 naming the request target", async (requestLine, target) => {
    const answer = parse(await raw(line(requestLine)));
    expect(answer.status).toBe(400);
    expect(answer.headers.allow).toBeUndefined();
    expect(JSON.parse(answer.body)).toEqual({
      error: `request target: ${JSON.stringify(target)} is not a path; send the path alone, as in "GET /api/transcripts HTTP/1.1".`,
    });
  });

  it("a path with raw non-ASCII bytes: 400 saying to percent-encode them, not that it is no path", async () => {
    const request = Buffer.concat([
      Buffer.from("GET /api/transcripts?query=H"),
      Buffer.from("É", "utf8"),
      Buffer.from("LLO HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"),
    ]);
    const answer = parse(await raw(request));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toMatch(
      /^request target: "\/api\/transcripts\?query=H.+LLO" holds characters a URL cannot carry as they are .*percent-encode them/,
    );
  });

  it("a path with a raw space: 400 naming the whole path, as for other raw characters", async () => {
    const answer = parse(await raw(line("GET /api/transcripts?query=a b HTTP/1.1")));
    expect(answer.status).toBe(400);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(answer.body).error).toMatch(
      /^request target: "\/api\/transcripts\?query=a b" holds characters a URL cannot carry as they are .*percent-encode them/,
    );
    // Far into a long path too (the line is read whole, up to Node's header limit).
    const far = parse(await raw(line(`GET /${"a".repeat(2000)} b HTTP/1.1`)));
    expect(far.status).toBe(400);
    expect(JSON.parse(far.body).error).toMatch(/^request target: "\/a{63}" holds characters/);
    // Any other bad constant in the line is still Node's bare answer.
    expect(await raw(line("GET / HTPP/1.1"))).toBe(
      "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
    );
  });

  it.each([
    ["TRACE / HTTP/1.1"],
    ["CONNECT 127.0.0.1:22 HTTP/1.1"],
    ["GET http://evil.example/ HTTP/1.1"],
    ["GET /a b HTTP/1.1"],
  ])("%s: the refusal carries the app's security headers", async (requestLine) => {
    const { headers } = parse(await raw(line(requestLine)));
    expect(headers["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("no-referrer");
    expect(headers["x-frame-options"]).toBe("DENY");
  });

  it("quotes at most 64 characters of a long target", async () => {
    const target = `http://evil.example/${"a".repeat(8000)}`;
    const answer = parse(await raw(line(`GET ${target} HTTP/1.1`)));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).error).toContain(JSON.stringify(target.slice(0, 64)));
    expect(answer.body.length).toBeLessThan(300);
  });

  it("hands every served method with a path on, untouched", async () => {
    for (const method of SERVED_METHODS) {
      const answer = parse(await raw(line(`${method} /api/x?y=1 HTTP/1.1`)));
      expect(answer.status).toBe(200);
      if (method !== "HEAD") expect(answer.body).toBe(`next: ${method} /api/x?y=1`);
    }
    // A path starting with two slashes is still a path (Next redirects it to its own host).
    expect(parse(await raw(line("GET //evil.example/ HTTP/1.1"))).body).toBe(
      "next: GET //evil.example/",
    );
  });

  it("names the bad request of a pipelined pair, and writes nothing into an answer begun", async () => {
    const first = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    const packet = Buffer.from(`${first}${line("TRACX / HTTP/1.1")}`, "latin1");
    // Where Node's parser stops: at the X, the first byte no method continues with.
    const problem = parseErrorProblem({
      code: "HPE_INVALID_METHOD",
      rawPacket: packet,
      bytesParsed: first.length + 4,
    });
    expect(problem?.error).toMatch(/^method: TRACX is not served here/);
    // The stand-in answered the first at once: the connection just ends after that answer.
    const answer = await raw(packet);
    expect(answer).toMatch(/^HTTP\/1.1 200 OK\r\n/);
    expect(answer).toMatch(/next: GET \/$/);
  });

  it("names a bad method at the very start of a packet, not a line later in it", async () => {
    const packet = Buffer.from(line("XYZ / HTTP/1.1", "X-Note: TRACE\r\n"), "latin1");
    const problem = parseErrorProblem({
      code: "HPE_INVALID_METHOD",
      rawPacket: packet,
      bytesParsed: 0,
    });
    expect(problem?.error).toMatch(/^method: XYZ is not served here/);
    const answer = parse(await raw(packet));
    expect(answer.status).toBe(405);
    expect(JSON.parse(answer.body).error).toMatch(/^method: XYZ /);
  });

  it("serves nothing pipelined behind a refused request (the refusal closed the connection)", async () => {
    const served: string[] = [];
    const guarded = createServer();
    guarded.on(
      "request",
      guardRequests(guarded, (request, response) => {
        served.push(`${request.method} ${request.url}`);
        response.end("next");
      }),
    );
    await new Promise<void>((resolve) => guarded.listen(0, "127.0.0.1", resolve));
    try {
      const { port: own } = guarded.address() as { port: number };
      const body = '{"message":"hi"}';
      const pipelined = `TRACE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nPOST /api/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
      const answer = await sendRaw(own, "127.0.0.1", pipelined);
      expect(parse(answer).status).toBe(405);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(served).toEqual([]);
      // The answers before the refusal, and the refusal, all go out; nothing after it is served.
      const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
      const mixed = await sendRaw(
        own,
        "127.0.0.1",
        `${get("/a")}${get("/b")}TRACE / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n${get("/c")}`,
      );
      // (A body has no line end: each status line follows the answer before it directly.)
      expect(mixed.match(/HTTP\/1\.1 \d{3}/g)).toEqual([
        "HTTP/1.1 200",
        "HTTP/1.1 200",
        "HTTP/1.1 405",
      ]);
      expect(served).toEqual(["GET /a", "GET /b"]);
    } finally {
      await new Promise<void>((resolve) => guarded.close(() => resolve()));
    }
  });

  it("Expect: 100-continue: 100 Continue only once the body is read, none before a refusal", async () => {
    const expectBody = "Content-Length: 2\r\nExpect: 100-continue\r\n";
    const refused = await raw(line("TRACE / HTTP/1.1", expectBody));
    expect(refused).not.toContain("100 Continue");
    expect(parse(refused).status).toBe(405);
    // Handed on, but answered without reading the body (a route refusing a foreign Host, or a
    // Content-Length over its cap): the body was never invited.
    const unread = await raw(line("POST /api/runs HTTP/1.1", expectBody));
    expect(unread).not.toContain("100 Continue");
    expect(parse(unread)).toMatchObject({ status: 200, body: "next: POST /api/runs" });
    // Read: told to go on first, and the body (sent after the 100, as a client waits) arrives.
    const read = await sendRaw(port, "127.0.0.1", line("POST /echo HTTP/1.1", expectBody), {
      afterContinue: "ok",
    });
    expect(read.startsWith("HTTP/1.1 100 Continue\r\n\r\n")).toBe(true);
    const answer = parse(read.slice(read.indexOf("\r\n\r\n") + 4));
    expect(answer).toMatchObject({ status: 200, body: "read: ok" });
  });

  it("leaves Node's own answers to other parse errors as they were", async () => {
    // Not HTTP at all (a TLS hello to the HTTP port): Node's bare 400.
    expect(await raw(Uint8Array.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00]))).toBe(
      "HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n",
    );
    const huge = line("GET / HTTP/1.1", `X-Big: ${"a".repeat(20_000)}\r\n`);
    expect(await raw(huge)).toBe(
      "HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n",
    );
  });
});
