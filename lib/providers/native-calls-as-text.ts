import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { DialectDefinition } from "../protocol/definition";
import { encodeTurn } from "../protocol/encode";
import type { CallEvent, Dialect } from "../protocol/events";

/** A native call's arguments as the encoder writes them, replaced by the text the server sent. */
const ARGS = { "\u0000": 0 };
const ARGS_TEXT = JSON.stringify(ARGS);

/** A call id that can stand in an `<action id="…">` attribute as it is. */
const SAFE_ID = /^[\w.:-]{1,64}$/;

/** One native tool call as a server sent it. */
export interface NativeCall {
  id: string;
  name: string;
  /** The arguments' JSON text, verbatim (it may be broken: the parser then says so). */
  input: string;
}

/**
 * Native calls written as one batch in the dialect's own call syntax (a definition's too), the
 * way the model would have written them in text: `<execute>[…]</execute>`, `§call: …` lines and
 * `§execute`, `<tool_call>` blocks, `<action>` blocks. The arguments go in verbatim, never
 * re-encoded, so broken ones get the parser's own error.
 */
export function nativeCallsText(
  dialect: Dialect | DialectDefinition,
  calls: readonly NativeCall[],
): string {
  const events = calls.map(
    (call, index): CallEvent => ({
      type: "call",
      id: `native-${index + 1}`,
      timestamp: 0,
      turn: 0,
      span: { start: 0, end: 0 },
      call: {
        id: SAFE_ID.test(call.id) ? call.id : `native-${index + 1}`,
        name: call.name,
        args: ARGS,
      },
    }),
  );
  const pieces = encodeTurn(dialect, events).split(ARGS_TEXT);
  return pieces
    .map((piece, index) => {
      const input = calls[index]?.input.trim();
      return index === pieces.length - 1
        ? piece
        : `${piece}${input === "" || input === undefined ? "{}" : input}`;
    })
    .join("");
}

/**
 * Native tool calls (`tool-call` parts: OpenAI `tool_calls`, Anthropic `tool_use`) → text in
 * the dialect's call syntax, in a text block of its own written before the stream's `finish`
 * (or its end). The runtime gives a model no tools and reads text only, so a call a server
 * parsed out of the model's text (a chat template's tool-call parser) was dropped without a
 * word and the turn ended as if the model had written nothing more. The capture proxy writes
 * such calls the same way (`lib/proxy/dialect-choice.ts`). Their streamed pieces
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
