import { type LanguageModel, streamText } from "ai";
import type { ContextMessage } from "./context";

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

/**
 * The adapter over the AI SDK's `streamText`: the system message goes in `system`, the rest
 * as messages; no SDK retries (a failure is shown, not hidden); provider errors arrive as
 * parts, never as throws.
 */
export async function* streamModelTurn({
  model,
  messages,
  settings,
  signal,
}: ModelTurnInput): AsyncIterable<TurnPart> {
  const system = messages
    .filter((message) => message.role === "system")
    .map((message) => message.content)
    .join("\n\n");
  const conversation = messages
    .filter((message) => message.role !== "system")
    .map((message) => ({ role: message.role as "user" | "assistant", content: message.content }));
  try {
    const result = streamText({
      model,
      system,
      messages: conversation,
      abortSignal: signal,
      maxRetries: 0,
      // Errors arrive as parts below; the SDK's default handler would log them (and a
      // provider's error text can echo request details).
      onError: () => {},
      ...settings,
    });
    for await (const part of result.fullStream) {
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
          yield { type: "error", error: part.error };
          return;
        case "abort":
          yield { type: "abort" };
          return;
        default:
          break;
      }
    }
  } catch (error) {
    if (signal.aborted) yield { type: "abort" };
    else yield { type: "error", error };
  }
}
