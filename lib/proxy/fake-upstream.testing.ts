/**
 * A provider for capture proxy tests: a loopback node:http server that keeps what each request
 * brought (headers and raw body bytes) and answers as the test says — a JSON body, an SSE text
 * written a few bytes at a time, or half an answer and then a dropped connection.
 */
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export type FakeAnswer =
  | { json: unknown; status?: number }
  /** Written `step` bytes at a time (default all at once); `cutAfter`: bytes sent before the connection drops. */
  | { sse: string; step?: number; cutAfter?: number };

export interface FakeUpstream {
  /** The `/v1` base URL. */
  baseURL: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startFakeUpstream(
  answer: (request: SeenRequest, n: number) => FakeAnswer,
): Promise<FakeUpstream> {
  const seen: SeenRequest[] = [];
  const server = createServer((request, response) => {
    const parts: Buffer[] = [];
    request.on("data", (part: Buffer) => parts.push(part));
    request.on("end", () => {
      const got = { path: request.url ?? "", headers: request.headers, body: Buffer.concat(parts) };
      seen.push(got);
      const reply = answer(got, seen.length);
      if ("json" in reply) {
        response.writeHead(reply.status ?? 200, { "content-type": "application/json" });
        response.end(JSON.stringify(reply.json));
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.socket?.setNoDelay(true);
      const bytes = Buffer.from(reply.sse);
      const end = reply.cutAfter ?? bytes.length;
      const step = reply.step ?? bytes.length;
      let at = 0;
      // One write a turn of the event loop, so the pieces leave as pieces.
      const next = () => {
        if (at >= end) {
          if (reply.cutAfter === undefined) response.end();
          else response.socket?.destroy();
          return;
        }
        response.write(bytes.subarray(at, Math.min(at + step, end)));
        at += step;
        setImmediate(next);
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** SSE as the Responses API sends it: each event named in `event:` and typed in its data. */
export function responsesSse(events: readonly Record<string, unknown>[]): string {
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
}
