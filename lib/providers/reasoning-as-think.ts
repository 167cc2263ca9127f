import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import { ThinkWriter } from "../protocol/written-back";

type Controller = TransformStreamDefaultController<LanguageModelV3StreamPart>;

/**
 * Reasoning parts (`reasoning_content` / `reasoning` deltas of llama.cpp's, vLLM's and Ollama's
 * reasoning parsers, OpenRouter, DeepSeek; Anthropic thinking blocks) → text parts in the
 * dialect's think markers, written by `ThinkWriter` (`lib/protocol/written-back.ts`) as the
 * capture proxy writes them: a marker in the reasoning that would end the block early is
 * broken, and in a delimiter dialect the answer text after it gets `§respond: ` unless it
 * opens with a marker of its own. The reasoning goes in a text block of its own
 * (`reasoning:<id>`), its markers written at its first delta and at its end (or before
 * anything else that follows, should a server never end it). Reasoning without text writes
 * nothing; every other part passes as it is.
 */
export function reasoningToText(
  dialect: Dialect | DialectDefinition,
): TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart> {
  const writer = new ThinkWriter(dialect);
  /** The reasoning block being written as text, once its first delta has come. */
  let current: string | undefined;
  /** The text block whose delta `writer` may hold (the answer's start after reasoning). */
  let answer: string | undefined;
  const delta = (controller: Controller, id: string, text: string) => {
    if (text !== "") controller.enqueue({ type: "text-delta", id, delta: text });
  };
  const closeCurrent = (controller: Controller) => {
    if (current === undefined) return;
    delta(controller, current, writer.close());
    controller.enqueue({ type: "text-end", id: current });
    current = undefined;
  };
  const release = (controller: Controller) => {
    if (answer !== undefined) delta(controller, answer, writer.release());
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
            release(controller);
            current = id;
            controller.enqueue({ type: "text-start", id });
          }
          delta(controller, id, writer.think(part.delta));
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
        case "text-delta":
          closeCurrent(controller);
          answer = part.id;
          delta(controller, part.id, writer.text(part.delta));
          return;
        default:
          closeCurrent(controller);
          release(controller);
          controller.enqueue(part);
      }
    },
    flush(controller) {
      closeCurrent(controller);
      release(controller);
    },
  });
}
