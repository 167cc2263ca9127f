/**
 * The proxy bench's servers, each in its own process as in real use (the agent, Wirescope and
 * the provider are different programs): `upstream <pauseMs> <frames>` or
 * `proxy <upstreamURL> [--no-record]`.
 * Prints its URL as the first line of stdout and serves until killed.
 */
import { mkdtempSync } from "node:fs";
import { createServer } from "node:http";
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

const [role, first, second] = process.argv.slice(2);
const started =
  role === "upstream"
    ? upstream(Number(first), Number(second))
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
