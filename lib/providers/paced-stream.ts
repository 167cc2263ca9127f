import type {
  LanguageModelV3,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";

const IN_PROCESS = Symbol.for("wirescope.inProcessModel");

/**
 * Marks a model whose stream is made in this process (the demo model, the replay model): the
 * runtime reads its parts straight from `doStream` instead of through the AI SDK's `streamText`,
 * whose half a dozen stream stages per text part cost more than the rest of a run's record
 * (issue 19). Such a model reads only `prompt` and `abortSignal` from its call.
 */
export function inProcessModel<Model extends LanguageModelV3>(model: Model): Model {
  // Not enumerable: a spread copy with another `doStream` is not this model any more.
  return Object.defineProperty(model, IN_PROCESS, { value: true });
}

/** Whether `model` was marked by `inProcessModel`. */
export function isInProcessModel(model: unknown): model is LanguageModelV3 {
  return typeof model === "object" && model !== null && IN_PROCESS in model;
}

export interface PacedStreamOptions {
  /** Pause between pieces, ms (0: none). */
  paceMs: number;
  signal: AbortSignal | undefined;
  usage: LanguageModelV3Usage;
  /** Who is streaming, for the abort error's message ("demo model", "replay model"). */
  name: string;
  /** Sent as `response-metadata` when given. */
  response?: { id: string; modelId: string };
}

/**
 * The stream parts of a scripted model (the demo model, the replay model): `text-delta`s of
 * the given pieces, one per pull so a slow reader never makes it buffer the whole text, a
 * pause between pieces, and an AbortError as soon as the signal aborts (during a pause too).
 */
export function pacedTextStream(
  pieces: readonly string[],
  options: PacedStreamOptions,
): ReadableStream<LanguageModelV3StreamPart> {
  const { paceMs, signal } = options;
  let index = 0;
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      controller.enqueue({ type: "stream-start", warnings: [] });
      if (options.response !== undefined)
        controller.enqueue({ type: "response-metadata", ...options.response });
      controller.enqueue({ type: "text-start", id: "0" });
    },
    async pull(controller) {
      if (signal?.aborted) {
        controller.error(abortError(signal, options.name));
        return;
      }
      const piece = pieces[index];
      if (piece === undefined) {
        controller.enqueue({ type: "text-end", id: "0" });
        controller.enqueue({
          type: "finish",
          usage: options.usage,
          finishReason: { unified: "stop", raw: "stop" },
        });
        controller.close();
        return;
      }
      if (index > 0 && paceMs > 0 && !(await wait(paceMs, signal))) {
        controller.error(abortError(signal, options.name));
        return;
      }
      index += 1;
      controller.enqueue({ type: "text-delta", id: "0", delta: piece });
    },
  });
}

/** A stream that fails at once with `error` (as a part, the way providers report failures). */
export function failedStream(error: Error): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream<LanguageModelV3StreamPart>({
    start(controller) {
      controller.enqueue({ type: "stream-start", warnings: [] });
      controller.enqueue({ type: "error", error });
      controller.close();
    },
  });
}

/** Token counts for a scripted model: estimates, about four characters a token. */
export function estimatedUsage(input: string, output: string): LanguageModelV3Usage {
  const inputTokens = Math.ceil(input.length / 4);
  const outputTokens = Math.ceil(output.length / 4);
  return {
    inputTokens: {
      total: inputTokens,
      noCache: inputTokens,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: outputTokens, text: outputTokens, reasoning: undefined },
  };
}

/** Resolves `true` after `ms`, or `false` as soon as `signal` aborts. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) {
      resolve(false);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function abortError(signal: AbortSignal | undefined, name: string): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  const error = new Error(`The ${name}'s stream was aborted`, { cause: reason });
  error.name = "AbortError";
  return error;
}
