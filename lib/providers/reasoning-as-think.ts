import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { DialectDefinition } from "../protocol/definition";
import { encodeTurn } from "../protocol/encode";
import type { Dialect } from "../protocol/events";

/** Stands for the think block's content while its markers are cut out of an encoded one. */
const CONTENT = "\u0000";

/**
 * The text a think block opens and closes with in `dialect` (`<think>` / `</think>\n`,
 * `§think: ` / `\n`, a definition's own markers), read off the encoder so every dialect, a
 * user's definition included, writes it the way its parser reads it. The newline after it
 * starts what follows on a line of its own, as the capture proxy writes reasoning.
 */
export function thinkMarkers(dialect: Dialect | DialectDefinition): [string, string] {
  const block = encodeTurn(dialect, [
    {
      type: "think",
      id: "reasoning",
      timestamp: 0,
      turn: 0,
      span: { start: 0, end: 0 },
      content: CONTENT,
    },
  ]);
  const at = block.indexOf(CONTENT);
  return [block.slice(0, at), `${block.slice(at + CONTENT.length)}\n`];
}

/**
 * Reasoning parts (`reasoning_content` / `reasoning` deltas of llama.cpp's, vLLM's and Ollama's
 * reasoning parsers, OpenRouter, DeepSeek; Anthropic thinking blocks) → text parts in the
 * think markers, in a text block of their own (`reasoning:<id>`), the markers
 * written at its first delta and at its end (or before anything else that follows, should a
 * server never end it). Reasoning without text writes nothing; every other part passes as it is.
 */
export function reasoningToText(
  open: string,
  close: string,
): TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart> {
  /** The reasoning block being written as text, once its first delta has come. */
  let current: string | undefined;
  const closeCurrent = (
    controller: TransformStreamDefaultController<LanguageModelV3StreamPart>,
  ) => {
    if (current === undefined) return;
    controller.enqueue({ type: "text-delta", id: current, delta: close });
    controller.enqueue({ type: "text-end", id: current });
    current = undefined;
  };
  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case "reasoning-start":
          return;
        case "reasoning-delta": {
          if (part.delta === "") return;
          const id = `reasoning:${part.id}`;
          if (current !== id) {
            closeCurrent(controller);
            current = id;
            controller.enqueue({ type: "text-start", id });
            controller.enqueue({ type: "text-delta", id, delta: open });
          }
          controller.enqueue({ type: "text-delta", id, delta: part.delta });
          return;
        }
        case "reasoning-end":
          if (current === `reasoning:${part.id}`) closeCurrent(controller);
          return;
        // What says nothing about the answer's content leaves a think block open.
        case "stream-start":
        case "response-metadata":
        case "raw":
          controller.enqueue(part);
          return;
        default:
          closeCurrent(controller);
          controller.enqueue(part);
      }
    },
    flush(controller) {
      closeCurrent(controller);
    },
  });
}
