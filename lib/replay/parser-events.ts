import { assertNever, type ErrorCode, type ProtocolEvent } from "../protocol/events";

/** Who writes each error code: the parser (model output) or the runtime. */
const ERROR_SOURCE: Record<ErrorCode, "parser" | "runtime"> = {
  invalid_json: "parser",
  invalid_call: "parser",
  invalid_action: "parser",
  model_wrote_results: "parser",
  unclosed_block: "parser",
  block_too_large: "parser",
  call_without_execute: "parser",
  stray_text: "parser",
  duplicate_response: "parser",
  unknown_variable: "runtime",
  dependency: "runtime",
  max_turns: "runtime",
  circuit_breaker: "runtime",
  tool_failed: "runtime",
  provider: "runtime",
  internal: "runtime",
  storage_failed: "runtime",
};

/**
 * Whether the parser wrote this event (so replay re-derives it from the raw chunks) rather
 * than the runtime (so replay keeps it as recorded). The runtime's own `end` (a turn with
 * nothing to run) has no span; the parser's always has one.
 */
export function isParserEvent(event: ProtocolEvent): boolean {
  switch (event.type) {
    case "think":
    case "call":
    case "execute":
    case "respond":
      return true;
    case "end":
      return event.span !== undefined;
    case "error":
      return ERROR_SOURCE[event.code] === "parser";
    case "user":
    case "result":
    case "metric":
    case "interrupt":
      return false;
    default:
      return assertNever(event, "event");
  }
}

/**
 * `isParserEvent` from what a run's summary keeps of its events (`RunTailEvents`): their type,
 * error code and whether they have a span. An unknown type or code counts as the runtime's.
 */
export function isParserKind(kind: { type: string; code?: string; span: boolean }): boolean {
  switch (kind.type) {
    case "think":
    case "call":
    case "execute":
    case "respond":
      return true;
    case "end":
      return kind.span;
    case "error":
      return (
        kind.code !== undefined &&
        Object.hasOwn(ERROR_SOURCE, kind.code) &&
        ERROR_SOURCE[kind.code as ErrorCode] === "parser"
      );
    default:
      return false;
  }
}

/** The model turn a parser event belongs to. */
export function parserTurn(event: ProtocolEvent): number {
  return "turn" in event && event.turn !== undefined ? event.turn : -1;
}
