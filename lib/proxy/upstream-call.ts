/**
 * The proxied call to the upstream, on `node:http` / `node:https` with keep-alive agents, and
 * its answer's body read straight from the socket's stream: no `fetch` (its `Request`, fetch
 * algorithm and web-stream body, and inside Next the global `fetch` is Next's patched one).
 * Measured with `bench/proxy-bench.ts` (docs/performance.md): 0.7–1 ms less CPU per call
 * before its first byte, and a quarter less for forwarding a 200-frame answer. A `fetch` can
 * still be given (tests' fake upstreams).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Readable } from "node:stream";
import { codingsOf, decodedBody } from "./answer-coding";

/** The answer's body, chunk by chunk as read: the part of a stream reader the relay uses. */
export interface AnswerBody {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Stops reading and closes the upstream connection. */
  cancel(): Promise<void>;
}

export interface UpstreamAnswer {
  status: number;
  statusText: string;
  /** As sent, except `content-encoding` when the body was decoded here (as `fetch` does). */
  headers: Headers;
  /** null when the answer has none (HEAD, 204, 304). */
  body: AnswerBody | null;
}

export interface UpstreamRequest {
  method: string;
  headers: Headers;
  body?: Uint8Array<ArrayBuffer>;
  signal: AbortSignal;
}

export type UpstreamCall = (url: string, init: UpstreamRequest) => Promise<UpstreamAnswer>;

/**
 * Idle connections are kept for reuse 4 s (undici's default, which `fetch` used), or 1 s less
 * than the upstream's `Keep-Alive: timeout` when that is shorter (Node's agent does this), so a
 * connection the upstream is about to close is not picked for a call.
 */
const KEEP_ALIVE_MS = 4_000;
const httpAgent = new HttpAgent({ keepAlive: true, timeout: KEEP_ALIVE_MS });
const httpsAgent = new HttpsAgent({ keepAlive: true, timeout: KEEP_ALIVE_MS });

/** The call over `node:http(s)`; rejects with the network's or the parser's error. */
export const httpUpstream: UpstreamCall = (url, init) =>
  new Promise<UpstreamAnswer>((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === "https:";
    if (!secure && target.protocol !== "http:") {
      reject(new Error(`unsupported protocol ${target.protocol}`));
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of init.headers) headers[name] = value;
    if (init.body !== undefined) headers["content-length"] = String(init.body.byteLength);
    const options = {
      method: init.method,
      headers,
      agent: secure ? httpsAgent : httpAgent,
      signal: init.signal,
    };
    const sent = (secure ? httpsRequest : httpRequest)(target, options, (answer) => {
      // A connection lost mid-answer fails the body's read (`readerOf`); never the process.
      answer.on("error", () => {});
      const noBody =
        init.method === "HEAD" ||
        answer.statusCode === 204 ||
        answer.statusCode === 304 ||
        (answer.statusCode ?? 0) < 200;
      const respond = ({ decoded, body }: { decoded: boolean; body: Readable | null }) =>
        resolve({
          status: answer.statusCode ?? 502,
          statusText: answer.statusMessage ?? "",
          headers: headersOf(answer, decoded),
          body: body === null ? null : readerOf(body, answer),
        });
      if (noBody) {
        respond({ decoded: false, body: null });
        answer.resume();
        return;
      }
      let codings: string[];
      try {
        codings = codingsOf(answer);
      } catch (error) {
        answer.destroy();
        reject(error);
        return;
      }
      decodedBody(answer, codings).then(respond, reject);
    });
    // Before the answer: the call fails. After it, the failure reaches the body's reader (the
    // response stream errors or closes early); the listener stays so it is never unhandled.
    sent.on("error", reject);
    sent.end(init.body);
  });

/** A `fetch` (a test's fake upstream) as an `UpstreamCall`. */
export function fetchUpstream(upstreamFetch: typeof fetch): UpstreamCall {
  return async (url, init) => {
    const answer = await upstreamFetch(url, {
      method: init.method,
      headers: init.headers,
      ...(init.body === undefined ? {} : { body: init.body }),
      signal: init.signal,
      redirect: "manual",
    });
    // fetch has undone any content-encoding already.
    const headers = new Headers(answer.headers);
    headers.delete("content-encoding");
    return {
      status: answer.status,
      statusText: answer.statusText,
      headers,
      body: answer.body === null ? null : answer.body.getReader(),
    };
  };
}

function headersOf(answer: IncomingMessage, decoded: boolean): Headers {
  const headers = new Headers();
  const raw = answer.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = raw[index] as string;
    if (decoded && name.toLowerCase() === "content-encoding") continue;
    headers.append(name, raw[index + 1] as string);
  }
  return headers;
}

/**
 * `body` pulled a chunk at a time, only as fast as `read` is called (the stream is in paused
 * mode, so the socket is not read past its small buffer): what is buffered comes back in one
 * chunk. An answer that closes before its end fails the read. `cancel` closes the connection.
 */
function readerOf(body: Readable, answer: IncomingMessage) {
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: Error | undefined;
  const poke = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  body.on("readable", poke);
  body.once("end", () => {
    ended = true;
    poke();
  });
  body.on("error", (error: Error) => {
    failure ??= error;
    poke();
  });
  body.once("close", () => {
    if (!ended) failure ??= new Error("The upstream connection closed before the answer ended.");
    poke();
  });
  const reader: AnswerBody = {
    async read() {
      for (;;) {
        const chunk = body.read() as Buffer | null;
        if (chunk !== null) return { done: false, value: chunk };
        if (failure !== undefined) throw failure;
        if (ended) return { done: true, value: undefined };
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
    async cancel() {
      body.destroy();
      answer.destroy();
    },
  };
  return reader;
}
