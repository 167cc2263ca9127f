/**
 * The one place a detected dialect name becomes a parser, and where think text is given the
 * dialect's own markers.
 */
import type { DetectableDialect } from "../protocol/detect";
import { assertNever, DIALECTS, type Dialect } from "../protocol/events";

/** How a captured turn's dialect was chosen, recorded with its request (spec §11). */
export interface DialectChoice {
  /** The dialect named or detected. */
  dialect: DetectableDialect;
  /** The parser used; differs from `dialect` only while this build has no parser for it. */
  parser: Dialect;
  by: "header" | "query" | "transcript" | "detected" | "fallback";
  reason: string;
}

export const DETECTABLE: readonly DetectableDialect[] = ["xml", "delimiter", "action", "hermes"];

/**
 * The parser for a dialect name. `hermes` has no parser in `lib/protocol` yet: until it is a
 * `Dialect`, its text is parsed as `xml` (its `<think>` blocks read right; tool calls show as
 * respond text). Once `DIALECTS` lists it, it maps to itself with no change here.
 */
export function parserFor(dialect: DetectableDialect): Dialect {
  const known = DIALECTS.find((candidate) => candidate === dialect);
  return known ?? "xml";
}

/** Where reasoning deltas go in the wire text: the dialect's think markers around them. */
export function thinkMarkers(dialect: DetectableDialect): { open: string; close: string } {
  switch (dialect) {
    case "xml":
    case "hermes":
      return { open: "<think>", close: "</think>\n" };
    case "action":
      return { open: "<thought>", close: "</thought>\n" };
    case "delimiter":
      // Content runs to the next marker; what follows the reasoning is closed by the caller.
      return { open: "§think: ", close: "\n" };
    default:
      return assertNever(dialect, "dialect");
  }
}

/** A native tool call (OpenAI `tool_calls`, Anthropic `tool_use`) as the upstream sent it. */
export interface NativeCall {
  id?: string;
  name: string;
  /** The arguments' JSON text, as streamed (it may be broken: the parser then says so). */
  args: string;
}

/**
 * Native tool calls written in the dialect's own call syntax, the way reasoning is written in
 * its think markers: the parser then reads them as `call` events (a broken argument text gives
 * the parser's own error). The arguments go in verbatim, never re-encoded.
 */
export function nativeCallsText(dialect: DetectableDialect, calls: readonly NativeCall[]): string {
  const args = (call: NativeCall) => (call.args.trim() === "" ? "{}" : call.args);
  const name = (call: NativeCall) => JSON.stringify(call.name);
  switch (dialect) {
    case "xml": {
      const items = calls.map((call) => `{"name": ${name(call)}, "args": ${args(call)}}`);
      return `<execute>[${items.join(", ")}]</execute>`;
    }
    case "hermes":
      return calls
        .map((call) => `<tool_call>{"name": ${name(call)}, "arguments": ${args(call)}}</tool_call>`)
        .join("\n");
    case "delimiter": {
      // `§execute` closes the batch, as the model would.
      const lines = calls.map((call) => `§call: {"name": ${name(call)}, "args": ${args(call)}}`);
      return `${lines.join("\n")}\n§execute`;
    }
    case "action":
      return calls
        .map((call) => {
          const safe = call.id !== undefined && /^[\w.:-]{1,64}$/.test(call.id);
          const id = safe ? ` id="${call.id}"` : "";
          return `<action type="tool" mode="async"${id}>{"name": ${name(call)}, "parameters": ${args(call)}}</action>`;
        })
        .join("\n");
    default:
      return assertNever(dialect, "dialect");
  }
}

/** A dialect name from a header or query value, or `undefined` for `auto` / absent. */
export function namedDialect(value: string | null): DetectableDialect | "auto" | "invalid" {
  if (value === null || value.trim() === "" || value.trim() === "auto") return "auto";
  const name = value.trim();
  return DETECTABLE.find((candidate) => candidate === name) ?? "invalid";
}
