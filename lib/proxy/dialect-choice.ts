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

/** A dialect name from a header or query value, or `undefined` for `auto` / absent. */
export function namedDialect(value: string | null): DetectableDialect | "auto" | "invalid" {
  if (value === null || value.trim() === "" || value.trim() === "auto") return "auto";
  const name = value.trim();
  return DETECTABLE.find((candidate) => candidate === name) ?? "invalid";
}
