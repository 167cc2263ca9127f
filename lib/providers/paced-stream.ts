import type {
  LanguageModelV3,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from "@ai-sdk/provider";
import { cancelWake, type PaceWaiter, wakeAfter } from "./pace-clock";

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

const PACED_PARTS = Symbol.for("wirescope.pacedParts");

/** A paced stream's parts read one at a time, without the web stream's stages per part. */
export interface PacedPartReader {
  /** The next part; rejects with an AbortError once the signal has aborted (a pending read at once). */
  read(): Promise<ReadableStreamReadResult<LanguageModelV3StreamPart>>;
  /** Stops the stream: no more parts, its pause let go of. */
  cancel(): Promise<void>;
}

/**
 * The reader behind a stream made by `pacedTextStream`, or behind a `doStream` result made by
 * `pacedStreamResult`, for a reader in this process that wants its parts directly
 * (`lib/runtime/direct-parts.ts`); `undefined` for anything else. Only one of the two is read:
 * the stream, or this.
 */
export function pacedPartReader(source: object): PacedPartReader | undefined {
  const reader: unknown = (source as { [PACED_PARTS]?: unknown })[PACED_PARTS];
  return reader instanceof PacedParts ? reader : undefined;
}

/**
 * A paced model's `doStream` result: `{ stream }` with the web stream made only when `stream`
 * is read (by the AI SDK). The runtime reads an in-process model's parts through
 * `pacedPartReader(result)` and never asks for it: a web stream made per turn and not read
 * cost about 18 µs of a run's start.
 */
export function pacedStreamResult(
  pieces: readonly string[],
  options: PacedStreamOptions,
): { readonly stream: ReadableStream<LanguageModelV3StreamPart> } {
  const parts = new PacedParts(pieces, options);
  let stream: ReadableStream<LanguageModelV3StreamPart> | undefined;
  const result = {
    get stream() {
      stream ??= webStream(parts);
      return stream;
    },
  };
  return Object.defineProperty(result, PACED_PARTS, { value: parts });
}

/**
 * The stream parts of a scripted model (the demo model, the replay model): `text-delta`s of
 * the given pieces, one per pull so a slow reader never makes it buffer the whole text, a
 * pause between pieces, and an AbortError as soon as the signal aborts (during a pause too).
 * The same parts can be read without the web stream (`pacedPartReader`).
 */
export function pacedTextStream(
  pieces: readonly string[],
  options: PacedStreamOptions,
): ReadableStream<LanguageModelV3StreamPart> {
  const parts = new PacedParts(pieces, options);
  return Object.defineProperty(webStream(parts), PACED_PARTS, { value: parts });
}

function webStream(parts: PacedParts): ReadableStream<LanguageModelV3StreamPart> {
  return new ReadableStream<LanguageModelV3StreamPart>(
    {
      async pull(controller) {
        try {
          const next = await parts.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
      cancel: () => parts.cancel(),
      // Pulled only for a waiting read, so a piece's pause starts when the one before is read.
    },
    { highWaterMark: 0 },
  );
}

const DONE: ReadableStreamReadResult<LanguageModelV3StreamPart> = { done: true, value: undefined };

/**
 * The parts in order: the opening parts, each piece, `text-end` and `finish`. The pause before
 * a piece starts when the one before it is handed out (as a web stream pulls one ahead), and
 * waits on the shared pace clock; the abort signal is listened to once for the whole stream.
 */
class PacedParts implements PacedPartReader, PaceWaiter {
  /** Parts to hand out before (opening) or instead of (closing) the next piece. */
  private queue: LanguageModelV3StreamPart[];
  private index = 0;
  /** The pace clock's due time while pausing before the next piece. */
  private due: number | undefined;
  private waiting:
    | {
        resolve: (result: ReadableStreamReadResult<LanguageModelV3StreamPart>) => void;
        reject: (error: Error) => void;
      }
    | undefined;
  private failure: Error | undefined;
  private ended = false;
  private readonly onAbort = () => this.fail();

  constructor(
    private readonly pieces: readonly string[],
    private readonly options: PacedStreamOptions,
  ) {
    this.queue = [{ type: "stream-start", warnings: [] }];
    if (options.response !== undefined)
      this.queue.push({ type: "response-metadata", ...options.response });
    this.queue.push({ type: "text-start", id: "0" });
    // Listened to once for the whole stream (not asked per read: a getter call per part).
    if (options.signal?.aborted) this.fail();
    else options.signal?.addEventListener("abort", this.onAbort, { once: true });
  }

  read(): Promise<ReadableStreamReadResult<LanguageModelV3StreamPart>> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    const queued = this.queue.shift();
    if (queued !== undefined) return Promise.resolve({ done: false, value: queued });
    if (this.ended) return Promise.resolve(DONE);
    if (this.due !== undefined)
      return new Promise((resolve, reject) => {
        this.waiting = { resolve, reject };
      });
    return Promise.resolve(this.take());
  }

  cancel(): Promise<void> {
    this.finish();
    this.queue = [];
    return Promise.resolve();
  }

  /** The pause is over (the pace clock). */
  wake(): void {
    this.due = undefined;
    const waiting = this.waiting;
    if (waiting === undefined) return;
    this.waiting = undefined;
    waiting.resolve(this.take());
  }

  /** The next piece (starting the pause before the one after it), or the closing parts. */
  private take(): ReadableStreamReadResult<LanguageModelV3StreamPart> {
    const piece = this.pieces[this.index];
    if (piece === undefined) {
      this.queue.push({
        type: "finish",
        usage: this.options.usage,
        finishReason: { unified: "stop", raw: "stop" },
      });
      this.finish();
      return { done: false, value: { type: "text-end", id: "0" } };
    }
    this.index += 1;
    if (this.index < this.pieces.length && this.options.paceMs > 0)
      this.due = wakeAfter(this, this.options.paceMs);
    return { done: false, value: { type: "text-delta", id: "0", delta: piece } };
  }

  private fail() {
    if (this.ended) return;
    this.failure = abortError(this.options.signal, this.options.name);
    this.queue = [];
    const waiting = this.waiting;
    this.waiting = undefined;
    this.finish();
    waiting?.reject(this.failure);
  }

  /** No more pieces: the pause (if any) is let go of and the signal no longer listened to. */
  private finish() {
    this.ended = true;
    if (this.due !== undefined) cancelWake(this, this.due);
    this.due = undefined;
    this.options.signal?.removeEventListener("abort", this.onAbort);
  }
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

/**
 * Token counts for a scripted model: estimates, about four characters a token. `input` is the
 * input text, or its length.
 */
export function estimatedUsage(input: string | number, output: string): LanguageModelV3Usage {
  const inputTokens = Math.ceil((typeof input === "number" ? input : input.length) / 4);
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

function abortError(signal: AbortSignal | undefined, name: string): Error {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  const error = new Error(`The ${name}'s stream was aborted`, { cause: reason });
  error.name = "AbortError";
  return error;
}
