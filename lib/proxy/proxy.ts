/**
 * The capture proxy's request handler (spec §11), free of Next: `/proxy/<name>/v1/<path>` is
 * forwarded to the upstream's `<baseURL>/<path>` with its method, query and body; the answer
 * goes back as the upstream sends it, chunk by chunk, while a copy of each chunk is handed to
 * the recorder. The client leaving aborts the upstream request.
 */

import type { DetectableDialect } from "../protocol/detect";
import { safeParseJson, tooDeep } from "../protocol/safe-json";
import type { ProviderEnv } from "../providers/provider";
import { BodyIdleError, DEFAULT_BODY_IDLE_MS, idleLimited } from "../server/body-idle";
import type { CallOutcome, Capture, CapturedCall } from "./capture";
import { DETECTABLE, namedDialect } from "./dialect-choice";
import { clientResponseHeaders, upstreamRequestHeaders } from "./forward-headers";
import { type RecordingQueue, recordingQueue } from "./recording-queue";
import { resolveUpstream, type Upstream } from "./upstreams";

export interface ProxyDependencies {
  env: ProviderEnv;
  capture: Capture;
  /** Largest request body forwarded, in bytes. */
  maxBodyBytes: number;
  /** A request body that sends nothing this long gets 408 (default `DEFAULT_BODY_IDLE_MS`). */
  bodyIdleMs?: number;
  fetch?: typeof fetch;
  /** Where recording work waits its turn (default: the process's one queue). */
  recording?: RecordingQueue;
  /**
   * Bytes of one call's answer that may wait for recording (default
   * `MAX_RECORDING_BACKLOG_BYTES`); past it the rest of that answer is not recorded.
   */
  maxRecordingBacklogBytes?: number;
}

/**
 * How far one call's recording may fall behind its answer, in bytes (16 MiB). An upstream that
 * streams small deltas fast reaches the client quicker than its records are parsed and stored;
 * without a bound, the queued bytes grew with the answer (1 GB for one call at 13 MB/s).
 */
export const MAX_RECORDING_BACKLOG_BYTES = 16 * 1024 * 1024;

/** The abort reason of a user's stop of the call's run (the client leaving has none). */
const STOPPED = "user";

/** Paths whose answers are model turns, by wire format. */
const RECORDED: Record<Upstream["format"], string> = {
  openai: "/chat/completions",
  anthropic: "/messages",
};

export async function proxyRequest(
  request: Request,
  name: string,
  dependencies: ProxyDependencies,
): Promise<Response> {
  const resolved = resolveUpstream(name, dependencies.env);
  if (!resolved.ok) return problem(resolved.status, resolved.error);
  const { upstream } = resolved;
  const url = new URL(request.url);
  const prefix = `/proxy/${encodeURIComponent(name)}/v1`;
  if (!url.pathname.startsWith(prefix)) return problem(404, `path: expected ${prefix}/…`);
  const path = url.pathname.slice(prefix.length);

  const fromHeader = request.headers.get("x-wirescope-dialect");
  const dialect = namedDialect(fromHeader ?? url.searchParams.get("dialect"));
  if (dialect === "invalid") {
    const field = fromHeader === null ? "dialect" : "x-wirescope-dialect";
    return problem(400, `${field}: use auto or one of ${DETECTABLE.join(", ")}.`);
  }
  // `?dialect=` is the proxy's own; the rest of the query goes on as sent.
  url.searchParams.delete("dialect");

  let body: Uint8Array<ArrayBuffer> | undefined;
  if (request.method !== "GET" && request.method !== "HEAD") {
    const read = await readCapped(
      request,
      dependencies.maxBodyBytes,
      dependencies.bodyIdleMs ?? DEFAULT_BODY_IDLE_MS,
    );
    if (read instanceof BodyIdleError) return problem(408, read.message);
    if (read === "too large") {
      return problem(
        413,
        `body: larger than ${dependencies.maxBodyBytes} bytes (WIRESCOPE_PROXY_MAX_BODY_MB).`,
      );
    }
    body = read;
  }

  // The upstream call starts first, and the request is read for the recording only after the
  // answer has started back to the agent (`deferred`), so recording adds nothing to its time
  // to first byte, however many calls arrive at once.
  const abort = new AbortController();
  const onClientGone = () => abort.abort();
  request.signal.addEventListener("abort", onClientGone, { once: true });
  const sent = (dependencies.fetch ?? fetch)(`${upstream.baseURL}${path}${url.search}`, {
    method: request.method,
    headers: upstreamRequestHeaders(request.headers, upstream),
    ...(body === undefined ? {} : { body }),
    signal: abort.signal,
    redirect: "manual",
  }).then(
    (response) => ({ ok: true as const, response }),
    (error: unknown) => ({ ok: false as const, error }),
  );

  let call: Recording | undefined;
  if (request.method === "POST" && path === RECORDED[upstream.format] && body !== undefined) {
    const sentBody = body;
    const named = dialect;
    call = deferred(
      () => startRecording(sentBody, named),
      dependencies.recording ?? recordingQueue,
      dependencies.maxRecordingBacklogBytes ?? MAX_RECORDING_BACKLOG_BYTES,
    );
  }
  /** Reads the request for the recording; runs only once the answer is on its way back. */
  function startRecording(
    sentBody: Uint8Array,
    named: DetectableDialect | "auto",
  ): CapturedCall | undefined {
    const json = safeParseJson(new TextDecoder().decode(sentBody));
    const session = request.headers.get("x-wirescope-session")?.trim();
    try {
      // A body nested past the limit is forwarded but not recorded (nothing stored from outside
      // nests deeper than MAX_JSON_DEPTH; walking it would also overflow the stack).
      const deep = json.ok ? tooDeep(json.value) : undefined;
      if (deep !== undefined)
        console.error(
          `wirescope: a proxied call was not recorded: ${deep || "body"} nests too deep.`,
        );
      return json.ok && deep === undefined
        ? dependencies.capture.begin({
            upstream,
            body: json.value,
            headers: request.headers,
            dialect: named,
            ...(named === "auto" ? {} : { namedBy: fromHeader === null ? "query" : "header" }),
            ...(session === undefined || session === "" ? {} : { session }),
            stop: () => abort.abort(STOPPED),
          })
        : undefined;
    } catch (error) {
      // Recording never stands in the way of the agent's traffic.
      console.error("wirescope: could not start recording a proxied call:", error);
      return undefined;
    }
  }

  const outcome = await sent;
  if (!outcome.ok) {
    request.signal.removeEventListener("abort", onClientGone);
    const reason = abort.signal.aborted ? abortOutcome(abort.signal) : undefined;
    const message = unreachable(outcome.error)
      ? `upstream: could not reach the ${upstream.name} upstream (${describeError(outcome.error)}).`
      : `upstream: the ${upstream.name} upstream's answer could not be read (${describeError(outcome.error)}).`;
    void call?.end(reason ?? { failure: message });
    return problem(502, message);
  }
  const answer = outcome.response;
  call?.response(answer.status, answer.headers.get("content-type") ?? "");
  const headers = clientResponseHeaders(answer.headers);
  if ((headers.get("content-type") ?? "").includes("text/event-stream")) {
    // Next compresses responses unless told not to; compression would hold frames back.
    const cache = headers.get("cache-control");
    headers.set("cache-control", cache === null ? "no-transform" : `${cache}, no-transform`);
  }
  const init = { status: answer.status, statusText: answer.statusText, headers };
  if (answer.body === null) {
    request.signal.removeEventListener("abort", onClientGone);
    void call?.end();
    return new Response(null, init);
  }
  return new Response(
    relay(answer.body, call, abort, () => {
      request.signal.removeEventListener("abort", onClientGone);
    }),
    init,
  );
}

/**
 * The upstream's body, chunk for chunk, read only as fast as the client reads (no buffering
 * here: highWaterMark 0). Recording runs after the chunk is on its way: each chunk (and the
 * end) goes to the recorder through the recording queue, in order (FIFO) and in slices, so
 * parsing and storing never sit between the upstream's bytes and the client's socket.
 */
function relay(
  body: ReadableStream<Uint8Array>,
  call: Recording | undefined,
  abort: AbortController,
  done: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  const finish = (outcome?: CallOutcome) => {
    if (finished) return;
    finished = true;
    done();
    void call?.end(outcome);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // A user's stop ends the answer at once, even while the client is not reading: the
        // client gets a broken-off answer (an error, as when an upstream drops), never a
        // truncated one that looks whole.
        abort.signal.addEventListener(
          "abort",
          () => {
            if (abort.signal.reason !== STOPPED) return;
            void reader.cancel().catch(() => {});
            finish("user");
            controller.error(new Error("The call was stopped from Wirescope."));
          },
          { once: true },
        );
      },
      async pull(controller) {
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          finish(
            abort.signal.aborted
              ? abortOutcome(abort.signal)
              : {
                  failure: `The upstream connection broke off mid-answer (${describeError(error)}).`,
                },
          );
          controller.error(error);
          return;
        }
        // Stopped while the read was in flight: the stream has errored already.
        if (finished) return;
        if (next.done) {
          finish();
          controller.close();
          return;
        }
        controller.enqueue(next.value);
        call?.push(next.value);
      },
      cancel() {
        abort.abort();
        void reader.cancel().catch(() => {});
        finish("disconnect");
      },
    },
    { highWaterMark: 0 },
  );
}

/** What the relay tells the recorder: a `CapturedCall` that may not have begun yet. */
type Recording = Omit<CapturedCall, "transcriptId">;

/**
 * A call's recording, every step of it queued on the recording queue: `begin` runs on first
 * use, so after the answer has been handed back (`response` is the first thing queued), and
 * before the first chunk is recorded; FIFO keeps chunks and the end in order. Once more than
 * `maxBacklog` bytes of the answer wait in the queue, the rest is not queued: the recording
 * ends where it fell behind (`fellBehind`), and the agent's answer goes on untouched.
 */
function deferred(
  begin: () => CapturedCall | undefined,
  queue: RecordingQueue,
  maxBacklog: number,
): Recording {
  let begun = false;
  let call: CapturedCall | undefined;
  let waiting = 0;
  let behind = false;
  const started = () => {
    if (!begun) {
      begun = true;
      call = begin();
    }
    return call;
  };
  return {
    response(status, contentType) {
      queue.push(() => started()?.response(status, contentType));
    },
    push(bytes) {
      if (behind) return;
      if (waiting + bytes.byteLength > maxBacklog) {
        behind = true;
        const message = `Recording fell more than ${maxBacklog} bytes behind the answer: the rest reached the client but is not recorded.`;
        queue.push(() => started()?.fellBehind(message));
        return;
      }
      waiting += bytes.byteLength;
      queue.push(() => {
        waiting -= bytes.byteLength;
        started()?.push(bytes);
      });
    },
    fellBehind(message) {
      queue.push(() => started()?.fellBehind(message));
    },
    end(outcome) {
      return new Promise<void>((resolve) => {
        queue.push(() => {
          const ending = started()?.end(outcome) ?? Promise.resolve();
          void ending.then(resolve, (error: unknown) => {
            console.error("wirescope: could not finish recording a proxied call:", error);
            resolve();
          });
        });
      });
    },
  };
}

/** Why an aborted call ended: a user's stop, or the client leaving. */
function abortOutcome(signal: AbortSignal): "user" | "disconnect" {
  return signal.reason === STOPPED ? "user" : "disconnect";
}

async function readCapped(
  request: Request,
  max: number,
  idleMs: number,
): Promise<Uint8Array<ArrayBuffer> | "too large" | BodyIdleError> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > max) return "too large";
  if (request.body === null) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = idleLimited(request.body, idleMs).getReader();
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch (error) {
      if (error instanceof BodyIdleError) return error;
      throw error;
    }
    const { done, value } = next;
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      return "too large";
    }
    parts.push(value);
  }
  const joined = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.byteLength;
  }
  return joined;
}

function problem(status: number, error: string): Response {
  return Response.json({ error }, { status });
}

/** Whether a failed fetch never got an answer (no connection), rather than an unreadable one. */
function unreachable(error: unknown): boolean {
  const cause =
    error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === "string" ? cause.code : "";
  // undici names an answer it could not parse UND_ERR_*; the network's own errors are E*.
  return (
    !code.startsWith("UND_ERR_") || code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_SOCKET"
  );
}

function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}
