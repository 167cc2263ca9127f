import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import { ThinkWriter } from "../protocol/think-writer";

type Controller = TransformStreamDefaultController<LanguageModelV3StreamPart>;

/**
 * Reasoning parts (`reasoning_content` / `reasoning` deltas of llama.cpp's, vLLM's and Ollama's
 * reasoning parsers, OpenRouter, DeepSeek; Anthropic thinking blocks) → text parts in the
 * dialect's think markers, written by `ThinkWriter` (`lib/protocol/written-back.ts`) as the
 * capture proxy writes them: a marker in the reasoning that would end the block early is
 * broken, in a delimiter dialect the answer text after it gets `§respond: ` unless it opens
 * with a marker of its own, and reasoning that comes while the answer has a block open
 * (`<respond>Hel`, thinking, `lo</respond>`; a call's JSON) is written where that block ends
 * (if the stream ends inside a block the answer never closed, it is written at the end, read as
 * thinking after that block's error; see `ThinkWriter.release`). The reasoning
 * goes in a text block of its own (`reasoning:<id>`, started at its first text), its markers
 * written at its first delta and at its end (or before anything else that follows, should a
 * server never end it); what the writer gives out later (reasoning that waited, answer text it
 * held) goes in the answer's text block while that is open, else in a block of its own. Every
 * text delta is inside a started, unended text block. Reasoning without text writes nothing;
 * every other part passes as it is.
 */
export function reasoningToText(
  dialect: Dialect | DialectDefinition,
): TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart> {
  const writer = new ThinkWriter(dialect);
  /** The reasoning block being written as text, and whether its text block has started. */
  let current: { id: string; started: boolean } | undefined;
  /** Text blocks started and not yet ended (the answer's). */
  const open = new Set<string>();
  /** The answer's last text block: where text the writer held goes while it is open. */
  let answer: string | undefined;
  let later = 0;
  const write = (controller: Controller, text: string) => {
    if (text === "") return;
    if (current !== undefined) {
      if (!current.started) controller.enqueue({ type: "text-start", id: current.id });
      current.started = true;
      controller.enqueue({ type: "text-delta", id: current.id, delta: text });
    } else if (answer !== undefined && open.has(answer)) {
      controller.enqueue({ type: "text-delta", id: answer, delta: text });
    } else {
      const id = `reasoning:later-${++later}`;
      controller.enqueue({ type: "text-start", id });
      controller.enqueue({ type: "text-delta", id, delta: text });
      controller.enqueue({ type: "text-end", id });
    }
  };
  const closeCurrent = (controller: Controller) => {
    if (current === undefined) return;
    write(controller, writer.close());
    if (current.started) controller.enqueue({ type: "text-end", id: current.id });
    current = undefined;
  };
  // Nothing more of the answer before what comes: held text and waiting reasoning go out.
  // In the reasoning's own block when one is being written (the reasoning that waited in it).
  const release = (controller: Controller) => {
    write(controller, writer.close() + writer.release());
    closeCurrent(controller);
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
            current = { id, started: false };
          }
          write(controller, writer.think(part.delta));
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
        // The answer's text blocks: one may end and another begin with a block of the
        // answer still open (thinking between them), so neither lets go of what is held.
        case "text-start":
          closeCurrent(controller);
          open.add(part.id);
          answer = part.id;
          controller.enqueue(part);
          return;
        case "text-end":
          closeCurrent(controller);
          open.delete(part.id);
          controller.enqueue(part);
          return;
        case "text-delta":
          closeCurrent(controller);
          answer = part.id;
          write(controller, writer.text(part.delta));
          return;
        default:
          release(controller);
          controller.enqueue(part);
      }
    },
    flush(controller) {
      release(controller);
    },
  });
}
