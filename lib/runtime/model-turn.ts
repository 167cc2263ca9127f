import { type LanguageModel, streamText, type TextStreamPart, type ToolSet } from "ai";
import { isInProcessModel } from "../providers/paced-stream";
import type { ContextMessage } from "./context";
import { directParts, finishPart, type PartReader, turnPartOf } from "./direct-parts";
import { DEFAULT_IDLE_TIMEOUT_MS, idleWatch } from "./stream-idle";
import type { ReportedUsage } from "./usage";

/** Call settings a user may set; passed to the provider as they are. */
export interface CallSettings {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  stopSequences?: string[];
  seed?: number;
}

/** One model turn as the loop sees it: text as it arrives, then how it finished. */
export type TurnPart =
  /**
   * `at`: when the text arrived, on the loop's clock (`ModelTurnInput.now`), set by a layer
   * that held it back (redaction); absent, it arrived just now.
   */
  | { type: "text"; text: string; at?: number }
  | ({ type: "finish"; finishReason: string } & ReportedUsage)
  | { type: "error"; error: unknown }
  | { type: "abort" };

export interface ModelTurnInput {
  model: LanguageModel;
  messages: readonly ContextMessage[];
  settings: CallSettings;
  signal: AbortSignal;
  /** The loop's clock, for a layer that notes when text arrived (`TurnPart`'s `at`). */
  now?: () => number;
}

/** Something that streams one model turn; the AI SDK in production, a script in tests. */
export type StreamTurn = (input: ModelTurnInput) => AsyncIterable<TurnPart>;

export interface StreamOptions {
  /** Stop a stream that sends nothing for this long (default 60 s; 0 = never). */
  idleTimeoutMs?: number;
}

/** `streamModelTurn` with options, as a `StreamTurn` the loop can be given. */
export function createStreamTurn(options: StreamOptions): StreamTurn {
  return (input) => streamModelTurn(input, options);
}

/**
 * The adapter over the AI SDK's `streamText`: the system message goes in `system`, the rest
 * as messages; no SDK retries (a failure is shown, not hidden); provider errors arrive as
 * parts, never as throws. A stream that sends nothing for `idleTimeoutMs` (waiting for the
 * response included, time the consumer spends on a part excluded) is aborted and reported as
 * an error part carrying a `StreamIdleError`; an abort of `signal` stays an `abort` part.
 * Nothing starts before the first part is asked for.
 */
export function streamModelTurn(
  input: ModelTurnInput,
  options: StreamOptions = {},
): AsyncIterable<TurnPart> {
  return { [Symbol.asyncIterator]: () => modelTurnParts(input, options) };
}

/**
 * `streamModelTurn`'s parts, written out as an iterator rather than an async generator: a demo
 * run reads a part per record, and a generator's resume and yield cost several promises a part
 * where this takes the read's own (issue 19).
 */
function modelTurnParts(
  { model, messages, settings, signal }: ModelTurnInput,
  { idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS }: StreamOptions,
): AsyncIterator<TurnPart> {
  let over = false;
  let opened: OpenedTurn | undefined;
  // The turn's own abort: the caller's signal or the idle watch, whichever comes first.
  const turnAbort = new AbortController();
  const idle = idleWatch(idleTimeoutMs, turnAbort);
  const onAbort = () => turnAbort.abort(signal.reason);
  // Our own abort (the execute boundary, a stop) wins over the idle timer's.
  const stopped = (): TurnPart =>
    !signal.aborted && idle.fired !== undefined
      ? { type: "error", error: idle.fired }
      : { type: "abort" };
  const close = () => {
    over = true;
    idle.stop();
    signal.removeEventListener("abort", onAbort);
    // Cancelling also settles a read still pending in the provider's stream.
    opened?.cancel().catch(() => {});
  };
  /** The turn's last part: the stream is let go of. */
  const last = (part: TurnPart): IteratorResult<TurnPart> => {
    close();
    return { done: false, value: part };
  };
  const failed = (error: unknown): IteratorResult<TurnPart> =>
    last(opened?.abortSignal.aborted ? stopped() : { type: "error", error });
  /**
   * Reads `reader`'s parts as turn parts (`convert`; `undefined`: a part the loop does not see,
   * read on). One promise step a part: the read's own.
   */
  const partsOf = <Part>(
    reader: PartReader<Part>,
    convert: (part: Part) => TurnPart | undefined,
    aborted: Promise<typeof ABORTED>,
    abortSignal: AbortSignal,
  ): OpenedTurn => {
    const received = (
      next: ReadableStreamReadResult<Part> | typeof ABORTED,
    ): IteratorResult<TurnPart> | Promise<IteratorResult<TurnPart>> => {
      if (over) return DONE;
      if (next === ABORTED) return last(stopped());
      if (next.done) {
        close();
        return DONE;
      }
      idle.pause();
      const part = convert(next.value);
      if (part === undefined) {
        // The consumer is not busy with it: the idle clock runs on.
        idle.touch();
        return read();
      }
      if (part.type === "error") return last(idle.fired === undefined ? part : stopped());
      if (part.type === "abort") return last(stopped());
      return { done: false, value: part };
    };
    const read = (): Promise<IteratorResult<TurnPart>> => {
      try {
        const next = reader.endsOnAbort ? reader.read() : Promise.race([reader.read(), aborted]);
        return next.then(received, failed);
      } catch (error) {
        return Promise.resolve(failed(error));
      }
    };
    return { read, cancel: () => reader.cancel(), abortSignal };
  };
  const open = (): OpenedTurn => {
    const system = messages
      .filter((message) => message.role === "system")
      .map((message) => message.content)
      .join("\n\n");
    const conversation = messages
      .filter((message) => message.role !== "system")
      .map((message) => ({ role: message.role as "user" | "assistant", content: message.content }));
    const abortSignal = turnAbort.signal;
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    // A provider's stream is not trusted to end after an abort: undici can leave a body read
    // pending for good when the abort lands between chunks, and the SDK waits on that read.
    // So each read races the abort, and the stream is let go of without waiting for it; a
    // reader whose reads end on abort by themselves (a paced in-process stream) is not raced.
    const aborted = new Promise<typeof ABORTED>((resolve) => {
      if (abortSignal.aborted) resolve(ABORTED);
      abortSignal.addEventListener("abort", () => resolve(ABORTED), { once: true });
    });
    // A model made in this process (demo, replay) is read directly: the same parts, without
    // the SDK's stream stages per part. Everything else goes through the SDK.
    if (isInProcessModel(model) && conversation.length > 0) {
      const reader = directParts(model, { system, conversation, settings, abortSignal });
      return partsOf(reader, turnPartOf, aborted, abortSignal);
    }
    const reader = streamText({
      model,
      system,
      messages: conversation,
      abortSignal,
      maxRetries: 0,
      // Errors arrive as parts below; the SDK's default handler would log them (and a
      // provider's error text can echo request details).
      onError: () => {},
      ...settings,
    }).fullStream.getReader();
    return partsOf(reader, sdkTurnPartOf, aborted, abortSignal);
  };
  return {
    next() {
      if (over) return Promise.resolve(DONE);
      if (opened === undefined) {
        try {
          opened = open();
        } catch (error) {
          return Promise.resolve(last({ type: "error", error }));
        }
      }
      // The consumer is done with the last part: the idle clock runs again.
      idle.touch();
      return opened.read();
    },
    return() {
      if (!over) close();
      return Promise.resolve(DONE);
    },
  };
}

/** An opened turn: its parts one read at a time, and how to let go of its stream. */
interface OpenedTurn {
  read(): Promise<IteratorResult<TurnPart>>;
  cancel(): Promise<void>;
  abortSignal: AbortSignal;
}

/** A part of `streamText`'s `fullStream` as a turn part; `undefined` for those the loop does not see. */
function sdkTurnPartOf(part: TextStreamPart<ToolSet>): TurnPart | undefined {
  switch (part.type) {
    case "text-delta":
      return part.text.length > 0 ? { type: "text", text: part.text } : undefined;
    case "finish":
      return finishPart(part.finishReason, part.totalUsage);
    case "error":
      return { type: "error", error: part.error };
    case "abort":
      return { type: "abort" };
    default:
      return undefined;
  }
}

const DONE: IteratorResult<TurnPart> = { done: true, value: undefined };
const ABORTED = Symbol("aborted");
