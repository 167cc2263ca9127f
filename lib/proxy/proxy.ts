/**
 * The capture proxy's request handler (docs/capture-proxy.md), free of Next: `/proxy/<name>/v1/<path>` is
 * forwarded to the upstream's `<baseURL>/<path>` with its method, query and body; the answer
 * goes back as the upstream sends it, chunk by chunk, while a copy of each chunk is handed to
 * the recorder. The client leaving aborts the upstream request; an upstream silent for
 * `upstreamIdleMs` is given up (504 before its answer, a broken-off stream during it).
 */

import type { DetectableDialect } from "../protocol/detect";
import { safeParseJson, tooDeep } from "../protocol/safe-json";
import type { ProviderEnv } from "../providers/provider";
import { BodyIdleError, DEFAULT_BODY_IDLE_MS } from "../server/body-idle";
import { UnreadableAnswer } from "./answer-coding";
import type { AnswerApi } from "./answer-decoder";
import type { Capture, CapturedCall } from "./capture";
import { deferred, type Recording } from "./deferred-recording";
import { DETECTABLE, namedDialect } from "./dialect-choice";
import { clientResponseHeaders, upstreamRequestHeaders } from "./forward-headers";
import { readCapped } from "./read-capped";
import { type RecordingQueue, recordingQueue } from "./recording-queue";
import { abortOutcome, describeError, relay, STOPPED, TIMED_OUT } from "./relay";
import { decodeRequestBody, requestCodings, unreadableNote } from "./request-coding";
import { fetchUpstream, httpUpstream } from "./upstream-call";
import { DEFAULT_UPSTREAM_IDLE_MS, noAnswerMessage } from "./upstream-idle";
import { resolveUpstream, type Upstream } from "./upstreams";

export interface ProxyDependencies {
  env: ProviderEnv;
  capture: Capture;
  /** Largest request body forwarded, in bytes. */
  maxBodyBytes: number;
  /** A request body that sends nothing this long gets 408 (default `DEFAULT_BODY_IDLE_MS`). */
  bodyIdleMs?: number;
  /**
   * An upstream that sends nothing this long (default `DEFAULT_UPSTREAM_IDLE_MS`): before its
   * answer, 504; mid-answer, the client's stream breaks off and a `provider` error is recorded.
   */
  upstreamIdleMs?: number;
  /** The upstream as a `fetch` (tests' fakes); by default, `node:http(s)` (`upstream-call.ts`). */
  fetch?: typeof fetch;
  /** Where recording work waits its turn (default: the process's one queue). */
  recording?: RecordingQueue;
  /**
   * Bytes of one call's answer that may wait for recording (default
   * `MAX_RECORDING_BACKLOG_BYTES`); past it the rest of that answer is not recorded.
   */
  maxRecordingBacklogBytes?: number;
  /**
   * Told of each call that will be recorded, when it arrives, with a promise of its recording's
   * end (the test server waits on these: a compressed body's recording begins only once it is
   * decoded, after the agent may have its whole answer).
   */
  onRecording?: (ended: Promise<void>) => void;
}

/**
 * How far one call's recording may fall behind its answer, in bytes (16 MiB). An upstream that
 * streams small deltas fast reaches the client quicker than its records are parsed and stored;
 * without a bound, the queued bytes grew with the answer (1 GB for one call at 13 MB/s).
 */
export const MAX_RECORDING_BACKLOG_BYTES = 16 * 1024 * 1024;

/** Paths whose answers are model turns, by wire format, and the API each is. */
const RECORDED: Record<Upstream["format"], Record<string, AnswerApi>> = {
  openai: { "/chat/completions": "openai", "/responses": "responses" },
  anthropic: { "/messages": "anthropic" },
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
  // to first byte, however many calls arrive at once — unless the request says its dialect:
  // then the call is a run (listed, stoppable) from when it has gone upstream.
  const abort = new AbortController();
  const onClientGone = () => abort.abort();
  request.signal.addEventListener("abort", onClientGone, { once: true });
  // No answer (not even its headers) within the idle limit: given up with a 504.
  const idleMs = dependencies.upstreamIdleMs ?? DEFAULT_UPSTREAM_IDLE_MS;
  const silent = setTimeout(() => abort.abort(TIMED_OUT), idleMs);
  const callUpstream =
    dependencies.fetch === undefined ? httpUpstream : fetchUpstream(dependencies.fetch);
  const sentAt = performance.now();
  const sent = callUpstream(`${upstream.baseURL}${path}${url.search}`, {
    method: request.method,
    headers: upstreamRequestHeaders(request.headers, upstream),
    ...(body === undefined ? {} : { body }),
    signal: abort.signal,
  }).then(
    (response) => ({ ok: true as const, response }),
    (error: unknown) => ({ ok: false as const, error }),
  );

  let call: Recording | undefined;
  const api = Object.hasOwn(RECORDED[upstream.format], path)
    ? RECORDED[upstream.format][path]
    : undefined;
  if (request.method === "POST" && api !== undefined && body !== undefined) {
    // A compressed body is forwarded as sent; the recording reads it decoded (bounded).
    let sentBody: Uint8Array | { unreadable: string } = body;
    const codings = requestCodings(request.headers.get("content-encoding"));
    const decode = async () => {
      const decoded = await decodeRequestBody(body, codings, dependencies.maxBodyBytes);
      sentBody = decoded.ok ? decoded.body : { unreadable: unreadableNote(decoded.reason) };
    };
    const named = dialect;
    call = deferred(
      () => startRecording(sentBody, api, named),
      dependencies.recording ?? recordingQueue,
      dependencies.maxRecordingBacklogBytes ?? MAX_RECORDING_BACKLOG_BYTES,
      codings.length === 0 ? undefined : decode,
      named !== "auto" || sessionDecided(),
    );
    if (dependencies.onRecording !== undefined) call = announced(call, dependencies.onRecording);
  }
  /** Whether the conversation the session header names has its dialect already (its transcript's). */
  function sessionDecided(): boolean {
    const session = request.headers.get("x-wirescope-session")?.trim();
    if (session === undefined || session === "") return false;
    return dependencies.capture.sessionDecided?.(session) ?? false;
  }
  /**
   * Reads the request for the recording: once the answer is on its way back, or, when the
   * request says its dialect, as soon as the call has gone upstream (`deferred`'s `now`).
   */
  function startRecording(
    sentBody: Uint8Array | { unreadable: string },
    api: AnswerApi,
    named: DetectableDialect | "auto",
  ): CapturedCall | undefined {
    const unreadable = sentBody instanceof Uint8Array ? undefined : sentBody.unreadable;
    const json =
      sentBody instanceof Uint8Array
        ? safeParseJson(new TextDecoder().decode(sentBody))
        : { ok: true as const, value: undefined };
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
            api,
            body: json.value,
            ...(unreadable === undefined ? {} : { unreadable }),
            headers: request.headers,
            dialect: named,
            ...(named === "auto" ? {} : { namedBy: fromHeader === null ? "query" : "header" }),
            ...(session === undefined || session === "" ? {} : { session }),
            stop: () => abort.abort(STOPPED),
            sentAgoMs: performance.now() - sentAt,
          })
        : undefined;
    } catch (error) {
      // Recording never stands in the way of the agent's traffic.
      console.error("wirescope: could not start recording a proxied call:", error);
      return undefined;
    }
  }

  const outcome = await sent;
  clearTimeout(silent);
  if (!outcome.ok) {
    request.signal.removeEventListener("abort", onClientGone);
    if (abort.signal.reason === TIMED_OUT) {
      const message = noAnswerMessage(upstream.name, idleMs);
      void call?.end({ failure: message });
      return problem(504, `upstream: ${message.charAt(0).toLowerCase()}${message.slice(1)}`);
    }
    const reason = abort.signal.aborted ? abortOutcome(abort.signal) : undefined;
    if (reason === "user") {
      void call?.end(reason);
      return problem(
        502,
        `upstream: the call was stopped from Wirescope (its run was stopped) before the ${upstream.name} upstream answered.`,
      );
    }
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
    relay(answer.body, {
      call,
      abort,
      upstream: upstream.name,
      idleMs,
      done: () => request.signal.removeEventListener("abort", onClientGone),
    }),
    init,
  );
}

/** `call`, its end announced to `onRecording` from now. */
function announced(call: Recording, onRecording: (ended: Promise<void>) => void): Recording {
  let ended = () => {};
  onRecording(
    new Promise<void>((resolve) => {
      ended = resolve;
    }),
  );
  return { ...call, end: (outcome) => call.end(outcome).finally(ended) };
}

function problem(status: number, error: string): Response {
  return Response.json({ error }, { status });
}

/** Whether a failed call never got an answer (no connection), rather than an unreadable one. */
function unreachable(error: unknown): boolean {
  if (error instanceof UnreadableAnswer) return false;
  const coded = (value: unknown) =>
    typeof (value as { code?: unknown } | undefined)?.code === "string"
      ? (value as { code: string }).code
      : "";
  // Node's HTTP parser names an answer it could not parse HPE_* (undici, behind a test's
  // fetch, UND_ERR_* on the error's cause); the network's own errors are E*.
  const code = coded(error) || (error instanceof Error ? coded(error.cause) : "");
  if (code.startsWith("HPE_")) return false;
  return (
    !code.startsWith("UND_ERR_") || code === "UND_ERR_CONNECT_TIMEOUT" || code === "UND_ERR_SOCKET"
  );
}
