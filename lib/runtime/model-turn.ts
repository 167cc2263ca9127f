import { type LanguageModel, streamText } from "ai";
import type { ContextMessage } from "./context";
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
  // Our own abort (the execute boundary, a stop) wins over the idle timer's.
  const stopped = (): TurnPart =>
    !signal.aborted && idle.fired !== undefined
      ? { type: "error", error: idle.fired }
      : { type: "abort" };
  idle.touch();
  try {
    const result = streamText({
      model,
      system,
      messages: conversation,
      abortSignal: AbortSignal.any([signal, idle.signal]),
      maxRetries: 0,
      // Errors arrive as parts below; the SDK's default handler would log them (and a
      // provider's error text can echo request details).
      onError: () => {},
      ...settings,
    });
    for await (const part of result.fullStream) {
      idle.pause();
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
    if (signal.aborted || idle.fired !== undefined) yield stopped();
    else yield { type: "error", error };
  } finally {
    idle.stop();
  }
}
