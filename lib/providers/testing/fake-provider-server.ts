import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { isPlainObject, safeParseJson } from "../../protocol/safe-json";
import { anthropicFormat } from "./anthropic-format";
import {
  applyStop,
  type Behaviour,
  behaviourOf,
  FAKE_MODELS,
  FAKE_REASONING,
  pieces,
  scriptFor,
  tokens,
} from "./fake-script";
import { openaiFormat } from "./openai-format";
import type { FailingBehaviour, FakeUsage, WireFormat } from "./wire-format";

export interface FakeProviderOptions {
  /** Loopback port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Characters per streamed delta (default 6). */
  chunkChars?: number;
  /** Pause between deltas in ms (default 0: the next turn of the event loop). */
  delayMs?: number;
}

/** A request the fake server received, for tests to look at. */
export interface ReceivedRequest {
  path: string;
  model?: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  /** Settles when the answer is over: sent whole, or the client went away first. */
  closed: Promise<"finished" | "aborted">;
}

export interface FakeProviderServer {
  /** `http://127.0.0.1:<port>`; the APIs live under `/v1`. */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  close(): Promise<void>;
}

/**
 * A model provider on a loopback port that the real AI SDK providers talk to unchanged:
 * `POST /v1/chat/completions` (OpenAI and OpenAI-compatible streaming), `POST /v1/messages`
 * (Anthropic streaming) and `GET /v1/models`. It writes the demo model's script in the
 * dialect named by the system prompt, honours stop sequences, and fails on request by model
 * id: `fail-401` (echoing the credentials it got), `fail-404`, `fail-429`, `fail-500`,
 * `fail-context`, `cut-halfway` (the socket closes mid-answer), `stall` (half the answer,
 * then silence), `overrun` (writes a results block after its turn), `reasoning` (streams
 * reasoning deltas first), `cached` (OpenAI format: reports three quarters of the input as
 * served by a prompt cache). A request without `"stream": true` gets one JSON answer.
 */
export async function startFakeProviderServer(
  options: FakeProviderOptions = {},
): Promise<FakeProviderServer> {
  const chunkChars = options.chunkChars ?? 6;
  const delayMs = options.delayMs ?? 0;
  const requests: ReceivedRequest[] = [];

  const server = createServer((request, response) => {
    void handle(request, response).catch(() => response.destroy());
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://fake").pathname;
    const raw = await readBody(request);
    const parsed = raw === "" ? undefined : safeParseJson(raw);
    const body = parsed?.ok === true ? parsed.value : raw;
    const closed = new Promise<"finished" | "aborted">((resolve) => {
      response.once("close", () => resolve(response.writableFinished ? "finished" : "aborted"));
    });
    const received: ReceivedRequest = { path, headers: request.headers, body, closed };
    requests.push(received);

    if (request.method === "GET" && path === "/v1/models") {
      const data = FAKE_MODELS.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" }));
      return sendJson(response, 200, { object: "list", data });
    }
    const format = request.method !== "POST" ? undefined : FORMATS[path];
    if (format === undefined) {
      return sendJson(response, 404, { error: { message: `No route ${request.method} ${path}` } });
    }
    const read = format.read(body);
    if (typeof read === "string") {
      return sendJson(response, 400, { error: { message: read, type: "invalid_request_error" } });
    }
    received.model = read.model;
    const behaviour = behaviourOf(read.model);
    if (behaviour.startsWith("fail-")) {
      const credentials =
        header(request, "x-api-key") ?? header(request, "authorization") ?? "(none)";
      const failure = format.failure(behaviour as FailingBehaviour, read.model, credentials);
      return sendJson(response, failure.status, failure.body, failure.headers);
    }
    const script = applyStop(scriptFor(read.conversation, behaviour), read.stop);
    if (!isPlainObject(body) || body.stream !== true) {
      const usage = usageFor(behaviour, tokens(raw), tokens(script.text));
      const reasoning = behaviour === "reasoning" ? FAKE_REASONING : undefined;
      return sendJson(response, 200, format.whole(read.model, script.text, usage, reasoning));
    }
    await stream(response, format, read.model, behaviour, script, tokens(raw));
  }

  async function stream(
    response: ServerResponse,
    format: WireFormat,
    model: string,
    behaviour: Behaviour,
    script: { text: string; stoppedBy?: string },
    inputTokens: number,
  ): Promise<void> {
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const reasoned = behaviour === "reasoning";
    for (const head of format.head(model, inputTokens, reasoned)) response.write(head);
    if (reasoned) {
      for (const part of pieces(FAKE_REASONING, chunkChars)) {
        response.write(format.reasoning(part));
        await pause(delayMs);
      }
      for (const frame of format.afterReasoning()) response.write(frame);
    }
    const parts = pieces(script.text, chunkChars);
    const broken = behaviour === "cut-halfway" || behaviour === "stall";
    const count = broken ? Math.ceil(parts.length / 2) : parts.length;
    for (const part of parts.slice(0, count)) {
      if (response.destroyed) return;
      response.write(format.delta(part, reasoned));
      await pause(delayMs);
    }
    if (behaviour === "stall") return; // silence until the client gives up
    if (behaviour === "cut-halfway") {
      // Let what was written reach the client, then drop the connection mid-answer.
      await new Promise<void>((resolve) => response.write("", () => resolve()));
      await pause(30);
      response.socket?.destroy();
      return;
    }
    const usage = usageFor(behaviour, inputTokens, tokens(script.text));
    for (const tail of format.tail(script.stoppedBy, usage, reasoned)) response.write(tail);
    response.end();
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const FORMATS: Record<string, WireFormat | undefined> = {
  "/v1/chat/completions": openaiFormat,
  "/v1/messages": anthropicFormat,
};

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve)));
}

/** The usage an answer reports: the `cached` model says a prompt cache served most of it. */
function usageFor(behaviour: Behaviour, input: number, output: number): FakeUsage {
  return behaviour === "cached"
    ? { input, output, cached: Math.floor(input * 0.75) }
    : { input, output };
}
