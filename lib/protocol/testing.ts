/**
 * Test helpers shared by the parser suites (conformance, corpus, round trip). Not used by
 * product code.
 */
import fc from "fast-check";
import { BUILTIN_DEFINITIONS, type DialectDefinition } from "./definition";
import type { ParserOptions } from "./emitter";
import type { Dialect, ProtocolEvent } from "./events";
import { isWhitespace } from "./markers";
import { mergePieces } from "./merge";
import { createParser, type DialectSpec } from "./parser";

/** Feeds `chunks` to a fresh parser and returns every event it produced, pieces included. */
export function feedChunks(
  dialect: DialectSpec,
  chunks: readonly string[],
  options?: ParserOptions,
): ProtocolEvent[] {
  const parser = createParser(dialect, options);
  const events: ProtocolEvent[] = [];
  for (const chunk of chunks) events.push(...parser.feed(chunk));
  events.push(...parser.end());
  return events;
}

/** Merged events with timestamps removed: what chunk invariance compares. */
export function canonical(events: readonly ProtocolEvent[]): unknown[] {
  return mergePieces(events).map(({ timestamp: _timestamp, ...rest }) => rest);
}

/** `text` cut at the given offsets (sorted, deduplicated, inside the text). */
export function splitAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.filter((cut) => cut > 0 && cut < text.length))].sort(
    (a, b) => a - b,
  );
  const chunks: string[] = [];
  let from = 0;
  for (const point of points) {
    chunks.push(text.slice(from, point));
    from = point;
  }
  chunks.push(text.slice(from));
  return chunks;
}

export function charsOf(text: string): string[] {
  // Code units, not code points: a surrogate pair split between chunks must work too.
  return Array.from({ length: text.length }, (_, i) => text.charAt(i));
}

/**
 * The merged events of `text` parsed whole, asserting along the way that 1-char chunks,
 * every 2-way split (for texts up to `maxEveryIndex` long) and `runs` seeded random splits
 * all give the same merged events. Throws with the failing split on a difference.
 */
export function parseInvariant(
  dialect: DialectSpec,
  text: string,
  {
    runs = 50,
    maxEveryIndex = 4000,
    seed,
  }: { runs?: number; maxEveryIndex?: number; seed?: number } = {},
): ProtocolEvent[] {
  const whole = feedChunks(dialect, [text]);
  const expected = JSON.stringify(canonical(whole));
  const check = (chunks: string[], how: string) => {
    const got = JSON.stringify(canonical(feedChunks(dialect, chunks)));
    if (got !== expected) {
      throw new Error(
        `Chunk invariance broken (${how}) for ${JSON.stringify(chunks)}\nwhole: ${expected}\nsplit: ${got}`,
      );
    }
  };
  check(charsOf(text), "1-char chunks");
  if (text.length <= maxEveryIndex) {
    for (let i = 1; i < text.length; i++) check(splitAt(text, [i]), `split at ${i}`);
  }
  fc.assert(
    fc.property(fc.array(fc.nat({ max: Math.max(text.length, 1) }), { maxLength: 24 }), (cuts) => {
      check(splitAt(text, cuts), `random cuts ${JSON.stringify(cuts)}`);
    }),
    { numRuns: runs, ...(seed === undefined ? {} : { seed }) },
  );
  return mergePieces(whole);
}

/** Offsets of non-whitespace characters that no event's span covers (docs/README.md: nothing lost). */
export function uncovered(text: string, events: readonly ProtocolEvent[]): number[] {
  const covered = new Uint8Array(text.length);
  for (const event of events) {
    const span = "span" in event ? event.span : undefined;
    if (span === undefined) continue;
    covered.fill(1, span.start, span.end);
  }
  const missing: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (covered[i] === 0 && !isWhitespace(text.charCodeAt(i))) missing.push(i);
  }
  return missing;
}

/** A custom dialect of the tags family with markers and field names of its own. */
export const REASONER_DIALECT: DialectDefinition = {
  name: "reasoner",
  family: "tags",
  think: ["<reasoning>", "</reasoning>"],
  batch: ["<tools>", "</tools>"],
  respond: ["<answer>", "</answer>"],
  end: "<done/>",
  results: ["<observations>", "</observations>"],
  fields: { name: "tool", args: "input" },
};

/** Dialects with markers that are hard to write back into. */
const reasoner: DialectDefinition = {
  name: "reasoner",
  family: "tags",
  think: ["<reasoning>", "</reasoning>"],
  batch: ["<tools>", "</tools>"],
  respond: ["<answer>", "</answer>"],
  end: "<done/>",
  results: ["<observations>", "</observations>"],
};
/** A closing marker that overlaps itself: `=` before `==` makes `===`, closed one early. */
const overlapping: DialectDefinition = {
  name: "overlapping",
  family: "tags",
  think: ["<t>", "=="],
  batch: ["<x>", "</x>"],
  results: ["<r>", "</r>"],
};
/** A one-character closing marker: it cannot be broken inside, so it is replaced. */
const brace: DialectDefinition = {
  name: "brace",
  family: "tags",
  think: ["{think", "}"],
  batch: ["<x>", "</x>"],
  results: ["<r>", "</r>"],
};
const arrows: DialectDefinition = {
  name: "arrows",
  family: "delimiter",
  think: "THINK>",
  call: "CALL>",
  execute: "GO",
  respond: "SAY>",
  end: "DONE",
  results: "[R:",
};
const toolish: DialectDefinition = {
  name: "toolish",
  family: "hermes",
  think: ["<reflect>", "</reflect>"],
  call: ["<fn>", "</fn>"],
  results: ["<out>", "</out>"],
};
export const WRITTEN_BACK_DEFINITIONS = { reasoner, overlapping, brace, arrows, toolish };

/** Built-ins and odd definitions the written-back tests (`written-back`, `think-writer`) try. */
export const WRITTEN_BACK_DIALECTS: (Dialect | DialectDefinition)[] = [
  "xml",
  "delimiter",
  "action",
  "hermes",
  reasoner,
  overlapping,
  brace,
  arrows,
  toolish,
];

/**
 * Every marker of `dialect` as text (action's `<action …>` with its attributes): what answers
 * built to trip the written-back tests hold, in their text and in their calls' JSON strings.
 */
export function markersOf(dialect: Dialect | DialectDefinition): string[] {
  if (dialect === "action")
    return [
      "<thought>",
      "</thought>",
      "<response>",
      "</response>",
      '<action type="tool" mode="sync" id="a1">',
      "</action>",
      "<results>",
      "</results>",
    ];
  const definition = typeof dialect === "string" ? BUILTIN_DEFINITIONS[dialect] : dialect;
  return Object.entries(definition).flatMap(([key, value]): string[] => {
    if (key === "name" || key === "family") return [];
    if (Array.isArray(value)) return value.filter((item) => typeof item === "string");
    return typeof value === "string" ? [value] : [];
  });
}
