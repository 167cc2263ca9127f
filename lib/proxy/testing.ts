/**
 * The capture proxy on a loopback port for tests and the bench, without Next: a node:http
 * server that turns each request into a web `Request` (its signal aborts when the client goes
 * away, as Next's does) and writes the `Response` back chunk by chunk.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { secretsOf } from "../providers/catalog";
import type { ProviderEnv } from "../providers/provider";
import { createMemoryStore } from "../store/memory-store";
import type { Store } from "../store/store";
import { type Capture, createCapture } from "./capture";
import { proxyRequest } from "./proxy";
import { type CaptureSink, storeSink } from "./sink";

export interface ProxyServer {
  /** `http://127.0.0.1:<port>`; base URLs are `${url}/proxy/<name>/v1`. */
  url: string;
  store: Store;
  /** Resolves when every call captured so far has ended and its records are written. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

export async function startProxyServer(options: {
  env: ProviderEnv;
  store?: Store;
  maxBodyBytes?: number;
  maxRecordChars?: number;
  /** How long the upstream may send nothing (default `DEFAULT_UPSTREAM_IDLE_MS`). */
  upstreamIdleMs?: number;
  /** false: forward only, record nothing (the bench's measure of forwarding alone). */
  record?: boolean;
}): Promise<ProxyServer> {
  const store = options.store ?? createMemoryStore();
  const pending = new Set<Promise<void>>();
  const sink: CaptureSink = storeSink(store, (message, error) => {
    throw new Error(`${message}: ${String(error)}`);
  });
  const recorder = createCapture({
    sink,
    secrets: secretsOf(options.env),
    maxRecordChars: options.maxRecordChars ?? 4 * 1024 * 1024,
  });
  const capture: Capture = {
    begin: (call) => (options.record === false ? undefined : recorder.begin(call)),
    sessionDecided: recorder.sessionDecided,
  };
  // Every call to be recorded counts as pending from its arrival until its recording has ended
  // and been written.
  const onRecording = (ended: Promise<void>) => {
    pending.add(ended);
    void ended.finally(() => pending.delete(ended));
  };
  const server = createServer((incoming, outgoing) => {
    const name = /^\/proxy\/([^/]+)\/v1\//.exec(incoming.url ?? "")?.[1] ?? "";
    const gone = new AbortController();
    outgoing.on("close", () => {
      if (!outgoing.writableFinished) gone.abort();
    });
    void proxyRequest(toRequest(incoming, port, gone.signal), decodeURIComponent(name), {
      env: options.env,
      capture,
      onRecording,
      maxBodyBytes: options.maxBodyBytes ?? 1024 * 1024,
      ...(options.upstreamIdleMs === undefined ? {} : { upstreamIdleMs: options.upstreamIdleMs }),
    })
      .then(async (response) => {
        outgoing.writeHead(
          response.status,
          response.statusText,
          [...response.headers.entries()].flat(),
        );
        if (response.body === null) return void outgoing.end();
        const reader = response.body.getReader();
        gone.signal.addEventListener("abort", () => void reader.cancel().catch(() => {}));
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          outgoing.write(value);
        }
        outgoing.end();
      })
      .catch(() => outgoing.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    store,
    settled: async () => {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function toRequest(incoming: IncomingMessage, port: number, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = incoming.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(`http://127.0.0.1:${port}${incoming.url ?? "/"}`, {
    method,
    headers,
    signal,
    ...(hasBody
      ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: "half" }
      : {}),
  } as RequestInit);
}

/**
 * A streamed chat call straight through `proxyRequest`, no server: to an `upstream` that is a
 * `fetch` of the test's own, recorded by `capture`.
 */
export function proxiedChat(
  upstream: typeof fetch,
  capture: Capture,
  options: { upstreamIdleMs?: number } = {},
): Promise<Response> {
  return proxyRequest(
    new Request("http://127.0.0.1/proxy/openai/v1/chat/completions", {
      method: "POST",
      body: JSON.stringify({ model: "m", stream: true, messages: [] }),
    }),
    "openai",
    {
      env: { OPENAI_BASE_URL: "http://upstream.invalid/v1" },
      capture,
      maxBodyBytes: 1024,
      fetch: upstream,
      ...options,
    },
  );
}

/**
 * A streamed chat call through the proxy at `proxyUrl` to the fake provider's `stall` model
 * (half an answer, then nothing: it runs until stopped or timed out), in the `xml` dialect so
 * the turn is a run from when it goes upstream (`auto` holds it until decided).
 */
export function stalledChat(proxyUrl: string): Promise<Response> {
  return fetch(`${proxyUrl}/proxy/openai/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-wirescope-dialect": "xml" },
    body: JSON.stringify({
      model: "stall",
      stream: true,
      messages: [{ role: "user", content: "list the files" }],
    }),
  });
}
