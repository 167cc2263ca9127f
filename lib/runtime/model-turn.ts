import { type LanguageModel, streamText, type TextStreamPart, type ToolSet } from "ai";
import { isInProcessModel } from "../providers/paced-stream";
import type { ContextMessage } from "./context";
import { type DirectPart, directParts, type PartReader } from "./direct-parts";
import { DEFAULT_IDLE_TIMEOUT_MS, idleWatch } from "./stream-idle";
import { type ReportedUsage, reported } from "./usage";

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
  | { type: "text"; text: string }
  | ({ type: "finish"; finishReason: string } & ReportedUsage)
  | { type: "error"; error: unknown }
  | { type: "abort" };

export interface ModelTurnInput {
  model: LanguageModel;
  messages: readonly ContextMessage[];
  settings: CallSettings;
  signal: AbortSignal;
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
  let opened:
    | { reader: PartReader; aborted: Promise<typeof ABORTED>; abortSignal: AbortSignal }
    | undefined;
  const idle = idleWatch(idleTimeoutMs);
  // Our own abort (the execute boundary, a stop) wins over the idle timer's.
  const stopped = (): TurnPart =>
    !signal.aborted && idle.fired !== undefined
      ? { type: "error", error: idle.fired }
      : { type: "abort" };
  const close = () => {
    over = true;
    idle.stop();
    // Cancelling also settles a read still pending in the provider's stream.
    opened?.reader.cancel().catch(() => {});
  };
  /** The turn's last part: the stream is let go of. */
  const last = (part: TurnPart): IteratorResult<TurnPart> => {
    close();
    return { done: false, value: part };
  };
  const open = () => {
    const system = messages
      .filter((message) => message.role === "system")
      .map((message) => message.content)
      .join("\n\n");
    const conversation = messages
      .filter((message) => message.role !== "system")
      .map((message) => ({ role: message.role as "user" | "assistant", content: message.content }));
    const abortSignal = AbortSignal.any([signal, idle.signal]);
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
    const reader: PartReader =
      isInProcessModel(model) && conversation.length > 0
        ? directParts(model, { system, conversation, settings, abortSignal })
        : streamText({
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
    return { reader, aborted, abortSignal };
  };
  const failed = (error: unknown): IteratorResult<TurnPart> =>
    last(opened?.abortSignal.aborted ? stopped() : { type: "error", error });
  const received = (
    next: ReadableStreamReadResult<TextStreamPart<ToolSet> | DirectPart> | typeof ABORTED,
  ): IteratorResult<TurnPart> | Promise<IteratorResult<TurnPart>> => {
    if (over) return DONE;
    if (next === ABORTED) return last(stopped());
    if (next.done) {
      close();
      return DONE;
    }
    idle.pause();
    const part = next.value;
    switch (part.type) {
      case "text-delta":
        if (part.text.length > 0) return { done: false, value: { type: "text", text: part.text } };
        break;
      case "finish":
        return {
          done: false,
          value: { type: "finish", finishReason: part.finishReason, ...reported(part.totalUsage) },
        };
      case "error":
        return last(idle.fired === undefined ? { type: "error", error: part.error } : stopped());
      case "abort":
        return last(stopped());
      default:
        break;
    }
    // A part the loop does not see: read on (the consumer is not busy with it).
    idle.touch();
    return read();
  };
  const read = (): Promise<IteratorResult<TurnPart>> => {
    if (opened === undefined) return Promise.resolve(DONE);
    const { reader, aborted } = opened;
    try {
      const next = reader.endsOnAbort ? reader.read() : Promise.race([reader.read(), aborted]);
      return next.then(received, failed);
    } catch (error) {
      return Promise.resolve(failed(error));
    }
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
      return read();
    },
    return() {
      if (!over) close();
      return Promise.resolve(DONE);
    },
  };
}

const DONE: IteratorResult<TurnPart> = { done: true, value: undefined };
const ABORTED = Symbol("aborted");
