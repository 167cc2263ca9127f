import { callShapeProblem, toToolCall } from "./call-shape";
import type { Emitter } from "./emitter";
import type { Span } from "./events";
import { safeParseJson } from "./safe-json";
import type { TagGrammar } from "./tag-parser";

/** Seeds 001 and 003: `<think>`, `<execute>[…]</execute>`, `<respond>`, `<end>`. */
export const XML_GRAMMAR: TagGrammar = {
  name: "xml",
  openers: [
    { text: "<think>", kind: "think" },
    { text: "<execute>", kind: "execute" },
    { text: "<respond>", kind: "respond" },
    { text: "<end>", kind: "end" },
    { text: "<results>", kind: "results" },
  ],
  closers: {
    think: { text: "</think>", kind: "think" },
    respond: { text: "</respond>", kind: "respond" },
    execute: { text: "</execute>", kind: "execute" },
    results: { text: "</results>", kind: "results" },
    action: { text: "</action>", kind: "action" },
  },
  outsideText: "respond",
  singleResponse: false,
  closeJson(emit, block) {
    if (block.tooLarge) {
      // Reported as block_too_large; the boundary still ends the turn.
      emit.push({
        type: "execute",
        id: emit.nextId(),
        timestamp: emit.now(),
        turn: emit.turn,
        span: block.span,
      });
      return;
    }
    closeExecuteBlock(emit, block.text, block.bodyStart, block.elements, block.span);
  },
};

/**
 * An execute block becomes one `call` per element, then `execute`. A block that is not a
 * valid array of well-formed calls yields one error and runs nothing, but the `execute`
 * still marks the turn's boundary (spec §4.1).
 */
export function closeExecuteBlock(
  emit: Emitter,
  text: string,
  bodyStart: number,
  elements: readonly number[],
  span: Span,
): void {
  const parsed = safeParseJson(text);
  if (!parsed.ok) {
    const message = `Invalid JSON in <execute>: ${parsed.error}. Write a JSON array of {"name", "args"} objects.`;
    emit.error("invalid_json", message, span, { raw: text });
  } else if (!Array.isArray(parsed.value)) {
    const message = `<execute> must hold a JSON array of calls, like [{"name": "list", "args": {}}].`;
    emit.error("invalid_call", message, span, { raw: text });
  } else {
    const calls = parsed.value;
    const bad = calls.findIndex((call) => callShapeProblem(call) !== null);
    if (bad >= 0) {
      const message = `Call ${bad + 1} of the <execute> batch: ${callShapeProblem(calls[bad])}. No call of this batch ran.`;
      emit.error("invalid_call", message, span, { raw: text });
    } else {
      const ownSpans = elements.length === calls.length * 2;
      calls.forEach((call, index) => {
        const id = emit.nextId();
        const start = bodyStart + (elements[index * 2] ?? 0);
        const end = bodyStart + (elements[index * 2 + 1] ?? 0);
        emit.push({
          type: "call",
          id,
          timestamp: emit.now(),
          turn: emit.turn,
          span: ownSpans ? { start, end } : { ...span },
          call: toToolCall(id, call as Record<string, unknown>),
        });
      });
    }
  }
  emit.push({ type: "execute", id: emit.nextId(), timestamp: emit.now(), turn: emit.turn, span });
}
