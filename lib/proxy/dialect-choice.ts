/**
 * The one place a detected dialect name becomes a parser. Think text and native calls are
 * written in the dialect's markers by `lib/protocol/written-back.ts`, as the playground does.
 */
import type { DetectableDialect } from "../protocol/detect";
import { DIALECTS, type Dialect } from "../protocol/events";

/** How a captured turn's dialect was chosen, recorded with its request (docs/capture-proxy.md). */
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

/** A dialect name from a header or query value, or `undefined` for `auto` / absent. */
export function namedDialect(value: string | null): DetectableDialect | "auto" | "invalid" {
  if (value === null || value.trim() === "" || value.trim() === "auto") return "auto";
  const name = value.trim();
  return DETECTABLE.find((candidate) => candidate === name) ?? "invalid";
}
