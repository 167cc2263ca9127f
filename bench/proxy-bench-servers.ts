/**
 * The proxy bench's servers, each in its own process as in real use (the agent, Wirescope and
 * the provider are different programs): `upstream <pauseMs> <frames>` or
 * `proxy <upstreamURL> [--no-record]`, or `pipe <upstreamURL>`: the floor, a bare `node:http` hop that
 * only pipes bytes each way (no web streams, no recording), what any proxy in Node costs here.
 * Prints its URL as the first line of stdout and serves until killed.
 */
import { mkdtempSync } from "node:fs";
import { Agent, createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProxyServer } from "../lib/proxy/testing";
import { openSqliteStore } from "../lib/store/sqlite-store";

/** ms since the epoch with sub-ms precision, comparable across processes on one machine. */
const clock = () => performance.timeOrigin + performance.now();
const PIECE = "<think>Wire text under the proxy; </think>";

async function upstream(pauseMs: number, frames: number): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", async () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (let index = 0; index < frames; index++) {
        if (response.destroyed) return;
        const frame = { choices: [{ index: 0, delta: { content: PIECE } }], sent: clock() };
        response.write(`data: ${JSON.stringify(frame)}\n\n`);
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
      response.end("data: [DONE]\n\n");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function proxy(upstreamURL: string, record: boolean): Promise<string> {
  const directory = mkdtempSync(join(tmpdir(), "wirescope-proxy-bench-"));
  const store = openSqliteStore({ path: join(directory, "bench.db") });
  const server = await startProxyServer({ env: { OPENAI_BASE_URL: upstreamURL }, store, record });
  return `${server.url}/proxy/openai/v1`;
}

async function pipe(upstreamURL: string): Promise<string> {
  const agent = new Agent({ keepAlive: true });
  const base = new URL(upstreamURL);
  const server = createServer((incoming, outgoing) => {
    const path = (incoming.url ?? "/").replace(/^\/proxy\/[^/]+\/v1/, base.pathname);
    const { host: _host, ...headers } = incoming.headers;
    const sent = httpRequest(
      new URL(path, base),
      { method: incoming.method, headers, agent },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    sent.on("error", () => outgoing.destroy());
    incoming.pipe(sent);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/proxy/openai/v1`;
}

const [role, first, second] = process.argv.slice(2);
const started =
  role === "upstream"
    ? upstream(Number(first), Number(second))
    : role === "pipe"
      ? pipe(first ?? "")
      : proxy(first ?? "", second !== "--no-record");
started.then(
  (url) => console.log(url),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

// A normal exit on Ctrl-C, so `node --cpu-prof` can write its profile.
process.on("SIGINT", () => process.exit(0));
