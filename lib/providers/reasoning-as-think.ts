import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import { afterReasoning, ReasoningGuard, thinkMarkers } from "../protocol/written-back";

/**
 * Reasoning parts (`reasoning_content` / `reasoning` deltas of llama.cpp's, vLLM's and Ollama's
 * reasoning parsers, OpenRouter, DeepSeek; Anthropic thinking blocks) → text parts in the
 * dialect's think markers (`lib/protocol/written-back.ts`, shared with the capture proxy), in a
 * text block of their own (`reasoning:<id>`), the markers written at its first delta and at its
 * end (or before anything else that follows, should a server never end it). A marker in the
 * reasoning that would end the block early is broken (`ReasoningGuard`); in a delimiter dialect
 * the answer text after it gets `§respond: ` unless it starts with a marker of its own.
 * Reasoning without text writes nothing; every other part passes as it is.
 */
export function reasoningToText(
  dialect: Dialect | DialectDefinition,
): TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart> {
  const { open, close } = thinkMarkers(dialect);
  /** The reasoning block being written as text, once its first delta has come. */
  let current: { id: string; guard: ReasoningGuard } | undefined;
  /** Answer text after reasoning, held until it shows whether it starts with a marker. */
  let following: { id: string; text: string } | undefined;
  let afterThink = false;
  const closeCurrent = (
    controller: TransformStreamDefaultController<LanguageModelV3StreamPart>,
  ) => {
    if (current === undefined) return;
    const { id, guard } = current;
    controller.enqueue({ type: "text-delta", id, delta: guard.end() + close });
    controller.enqueue({ type: "text-end", id });
    current = undefined;
    afterThink = true;
  };
  /** Held answer text out, with `prefix` before it (the text is undecided at a stream's end). */
  const release = (
    controller: TransformStreamDefaultController<LanguageModelV3StreamPart>,
    prefix = "",
  ) => {
    if (following === undefined) return;
    const delta = prefix + following.text;
    if (delta !== "") controller.enqueue({ type: "text-delta", id: following.id, delta });
    following = undefined;
  };
  return new TransformStream({
    transform(part, controller) {
      switch (part.type) {
        case "reasoning-start":
          return;
        case "reasoning-delta": {
          if (part.delta === "") return;
          const id = `reasoning:${part.id}`;
          if (current?.id !== id) {
            closeCurrent(controller);
            release(controller);
            afterThink = false;
            current = { id, guard: new ReasoningGuard(dialect) };
            controller.enqueue({ type: "text-start", id });
            controller.enqueue({ type: "text-delta", id, delta: open });
          }
          const safe = current.guard.push(part.delta);
          if (safe !== "") controller.enqueue({ type: "text-delta", id, delta: safe });
          return;
        }
        case "reasoning-end":
          if (current?.id === `reasoning:${part.id}`) closeCurrent(controller);
          return;
        // What says nothing about the answer's content leaves a think block open.
        case "stream-start":
        case "response-metadata":
        case "raw":
          controller.enqueue(part);
          return;
        case "text-delta": {
          closeCurrent(controller);
          if (!afterThink) return controller.enqueue(part);
          const text = (following?.text ?? "") + part.delta;
          const prefix = afterReasoning(dialect, text);
          if (prefix === null) {
            following = { id: part.id, text };
            return;
          }
          following = undefined;
          afterThink = false;
          controller.enqueue({ ...part, delta: prefix + text });
          return;
        }
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
