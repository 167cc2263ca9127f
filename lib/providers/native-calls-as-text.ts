import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import { type NativeCall, nativeCallsText } from "../protocol/written-back";

/**
 * Native tool calls (`tool-call` parts: OpenAI `tool_calls`, Anthropic `tool_use`) → text in
 * the dialect's call syntax, in a text block of its own written before the stream's `finish`
 * (or its end). The runtime gives a model no tools and reads text only, so a call a server
 * parsed out of the model's text (a chat template's tool-call parser) was dropped without a
 * word and the turn ended as if the model had written nothing more. The capture proxy writes
 * such calls with the same function (`nativeCallsText`, `lib/protocol/written-back.ts`). Their streamed pieces
 * (`tool-input-*`) are dropped: the whole call comes in `tool-call`.
 */
export function nativeCallsToText(
  dialect: Dialect | DialectDefinition,
): TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart> {
  const calls: NativeCall[] = [];
  /** Whether text came before: the calls then start on a line of their own. */
  let wrote = false;
  const writeCalls = (controller: TransformStreamDefaultController<LanguageModelV3StreamPart>) => {
    if (calls.length === 0) return;
    const id = "native-calls";
    const text = nativeCallsText(dialect, calls);
    controller.enqueue({ type: "text-start", id });
    controller.enqueue({ type: "text-delta", id, delta: wrote ? `\n${text}` : text });
    controller.enqueue({ type: "text-end", id });
    calls.length = 0;
  };
  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case "tool-input-start":
        case "tool-input-delta":
        case "tool-input-end":
          return;
        case "tool-call":
          if (part.providerExecuted === true) return controller.enqueue(part);
          calls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
          return;
        case "finish":
          writeCalls(controller);
          controller.enqueue(part);
          return;
        case "text-delta":
          if (part.delta !== "") wrote = true;
          controller.enqueue(part);
          return;
        default:
          controller.enqueue(part);
      }
    },
    flush(controller) {
      writeCalls(controller);
    },
  });
}
