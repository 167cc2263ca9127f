import { type LanguageModel, streamText } from "ai";
import { isInProcessModel } from "../providers/paced-stream";
import type { ContextMessage } from "./context";
import { directParts, type PartReader } from "./direct-parts";
import { DEFAULT_IDLE_TIMEOUT_MS, idleWatch } from "./stream-idle";

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
  | { type: "finish"; inputTokens?: number; outputTokens?: number; finishReason: string }
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
 */
export async function* streamModelTurn(
  { model, messages, settings, signal }: ModelTurnInput,
  { idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS }: StreamOptions = {},
): AsyncIterable<TurnPart> {
  const system = messages
    .filter((message) => message.role === "system")
    .map((message) => message.content)
    .join("\n\n");
  const conversation = messages
    .filter((message) => message.role !== "system")
    .map((message) => ({ role: message.role as "user" | "assistant", content: message.content }));
  const idle = idleWatch(idleTimeoutMs);
  const abortSignal = AbortSignal.any([signal, idle.signal]);
  // Our own abort (the execute boundary, a stop) wins over the idle timer's.
  const stopped = (): TurnPart =>
    !signal.aborted && idle.fired !== undefined
      ? { type: "error", error: idle.fired }
      : { type: "abort" };
  // A provider's stream is not trusted to end after an abort: undici can leave a body read
  // pending for good when the abort lands between chunks, and the SDK waits on that read.
  // So each read races the abort, and the stream is let go of without waiting for it; a reader
  // whose reads end on abort by themselves (a paced in-process stream) is not raced.
  const aborted = new Promise<typeof ABORTED>((resolve) => {
    if (abortSignal.aborted) resolve(ABORTED);
    abortSignal.addEventListener("abort", () => resolve(ABORTED), { once: true });
  });
  let reader: PartReader | undefined;
  idle.touch();
  try {
    // A model made in this process (demo, replay) is read directly: the same parts, without
    // the SDK's stream stages per part. Everything else goes through the SDK.
    reader =
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
    for (;;) {
      const next = reader.endsOnAbort
        ? await reader.read()
        : await Promise.race([reader.read(), aborted]);
      if (next === ABORTED) {
        yield stopped();
        return;
      }
      if (next.done) return;
      idle.pause();
      const part = next.value;
      switch (part.type) {
        case "text-delta":
          if (part.text.length > 0) yield { type: "text", text: part.text };
          break;
        case "finish":
          yield {
            type: "finish",
            finishReason: part.finishReason,
            ...(part.totalUsage.inputTokens === undefined
              ? {}
              : { inputTokens: part.totalUsage.inputTokens }),
            ...(part.totalUsage.outputTokens === undefined
              ? {}
              : { outputTokens: part.totalUsage.outputTokens }),
          };
          break;
        case "error":
          yield idle.fired === undefined ? { type: "error", error: part.error } : stopped();
          return;
        case "abort":
          yield stopped();
          return;
        default:
          break;
      }
      idle.touch();
    }
  } catch (error) {
    if (abortSignal.aborted) yield stopped();
    else yield { type: "error", error };
  } finally {
    idle.stop();
    // Cancelling also settles a read still pending in the provider's stream.
    reader?.cancel().catch(() => {});
  }
}

const ABORTED = Symbol("aborted");
