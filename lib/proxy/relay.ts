/**
 * The upstream's answer on its way back to the client: chunk for chunk, broken off by a
 * user's stop or an upstream gone silent, with a copy of each chunk for the recording.
 */
import type { CallOutcome } from "./capture";
import type { Recording } from "./deferred-recording";
import type { AnswerBody } from "./upstream-call";
import { stalledMessage } from "./upstream-idle";

/**
 * The error an answer broken off ends with (a stop, a timeout, an upstream that dropped). Named
 * `AbortError`: Next breaks the client's connection off either way, but logs "failed to pipe
 * response" with a 10-line stack for any other error, once per call.
 */
function brokenOff(message: string): Error {
  const error = new Error(message);
  error.name = "AbortError";
  return error;
}

/** The abort reason of a user's stop of the call's run (the client leaving has none). */
export const STOPPED = "user";
/** The abort reason of an upstream that sent nothing for its idle limit. */
export const TIMED_OUT = "upstream-idle";

export interface RelayOptions {
  call: Recording | undefined;
  /** Aborts the upstream request; the relay aborts it too, and listens for stops. */
  abort: AbortController;
  /** For the timeout's message: the upstream's name. */
  upstream: string;
  /** How long a read may wait for the upstream (`WIRESCOPE_PROXY_UPSTREAM_IDLE_TIMEOUT_S`). */
  idleMs: number;
  /** Called once, when the answer ends in any way. */
  done: () => void;
  /** Where the one line about an upstream that broke off mid-answer goes (default stderr). */
  log?: (line: string) => void;
}

/**
 * The upstream's body, chunk for chunk, read only as fast as the client reads (no buffering
 * here: highWaterMark 0), and the one web stream between the upstream's socket and Next.
 * Recording runs after the chunk is on its way: each chunk (and the end) goes to the recorder
 * through the recording queue, in order (FIFO) and in slices, so parsing and storing never
 * sit between the upstream's bytes and the client's socket.
 *
 * Only the upstream's silence counts towards `idleMs` — the wait starts when the client asks
 * for more — so a client that reads slowly never trips it.
 */
export function relay(reader: AnswerBody, options: RelayOptions): ReadableStream<Uint8Array> {
  const { call, abort } = options;
  let finished = false;
  const finish = (outcome?: CallOutcome) => {
    if (finished) return;
    finished = true;
    options.done();
    void call?.end(outcome);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        // A user's stop, or the upstream's silence, ends the answer at once, even while the
        // client is not reading: the client gets a broken-off answer (an error, as a gateway
        // gives when an upstream drops), never a truncated one that looks whole.
        abort.signal.addEventListener(
          "abort",
          () => {
            const { reason } = abort.signal;
            if (reason !== STOPPED && reason !== TIMED_OUT) return;
            void reader.cancel().catch(() => {});
            if (reason === STOPPED) {
              finish("user");
              controller.error(brokenOff("The call was stopped from Wirescope."));
              return;
            }
            const message = stalledMessage(options.upstream, options.idleMs);
            finish({ failure: message });
            controller.error(brokenOff(message));
          },
          { once: true },
        );
      },
      async pull(controller) {
        const silent = setTimeout(() => abort.abort(TIMED_OUT), options.idleMs);
        let next: ReadableStreamReadResult<Uint8Array>;
        try {
          next = await reader.read();
        } catch (error) {
          if (abort.signal.aborted) {
            finish(abortOutcome(abort.signal));
            controller.error(brokenOff("The call was aborted."));
            return;
          }
          const message = `The upstream connection broke off mid-answer (${describeError(error)}).`;
          finish({ failure: message });
          // One line instead of Next's stack; the error's own words, never the call's headers.
          (options.log ?? console.error)(
            `wirescope: the ${options.upstream} upstream broke off mid-answer (${describeError(error).slice(0, 200)}); the agent's answer was broken off too.`,
          );
          controller.error(brokenOff(message));
          return;
        } finally {
          clearTimeout(silent);
        }
        // Stopped (or timed out) while the read was in flight: the stream has errored already.
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

/** Why an aborted call ended: a user's stop, or the client leaving (a timeout ends it first). */
export function abortOutcome(signal: AbortSignal): "user" | "disconnect" {
  return signal.reason === STOPPED ? "user" : "disconnect";
}

/** An error's message and its cause's, never a stack. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return `${error.message}${cause}`;
  }
  return String(error);
}
