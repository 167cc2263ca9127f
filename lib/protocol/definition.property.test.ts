/**
 * docs/dialects/custom.md: a user-defined dialect gets the same guarantees as the built-ins. Random valid
 * definitions (checked by the schema, like any user's) are generated for each family, and
 * for each: (1) random texts made of its markers, near-markers, JSON and junk give the same
 * merged events however they are split, every non-blank character is in some span and no
 * span leaves the text; (2) random conversations survive encoder → parser unchanged.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DialectDefinition } from "./definition";
import { definitionMarkers } from "./definition";
import { parseDefinition } from "./definition-schema";
import { encodeTurn } from "./encode";
import type { ProtocolEvent } from "./events";
import { parseInvariant, uncovered } from "./testing";

/** Any marker text: short, one line, trimmed, from characters that stress the scanners. */
const anyMarker = fc
  .array(
    fc.constantFrom(
      "<",
      ">",
      "/",
      "§",
      "[",
      "]",
      "{",
      "}",
      ":",
      '"',
      "a",
      "b",
      "x",
      "_",
      "😀",
      " ",
    ),
    {
      minLength: 1,
      maxLength: 6,
    },
  )
  .map((chars) => chars.join("").trim())
  .filter((text) => text.length > 0);

/**
 * A marker a round trip can rely on: it holds a character JSON never writes outside a string
 * and ends in one, so it never matches inside encoded JSON or glued to a word.
 */
const safeMarker = fc
  .tuple(
    fc.constantFrom("<", "§", "#", "@", "!", "|", "~"),
    fc.array(fc.constantFrom("a", "b", "t", "_", "/", "-", "1"), { maxLength: 5 }),
    fc.constantFrom(">", ":", "#", "|", "~", "!"),
  )
  .map(([head, middle, tail]) => `${head}${middle.join("")}${tail}`);

const fieldsArbitrary = fc.option(
  fc.record({
    name: fc.constantFrom("name", "tool", "fn"),
    args: fc.constantFrom("args", "input", "params"),
  }),
  { nil: undefined },
);

function definitionArbitrary(marker: fc.Arbitrary<string>): fc.Arbitrary<DialectDefinition> {
  const pair = fc.tuple(marker, marker);
  const tags = fc.record(
    {
      name: fc.constant("t"),
      family: fc.constant("tags" as const),
      think: pair,
      batch: pair,
      respond: pair,
      end: marker,
      results: pair,
      fields: fieldsArbitrary,
    },
    { requiredKeys: ["name", "family", "think", "batch", "results"] },
  );
  const delimiter = fc.record(
    {
      name: fc.constant("d"),
      family: fc.constant("delimiter" as const),
      think: marker,
      call: marker,
      execute: marker,
      respond: marker,
      end: marker,
      results: marker,
      fields: fieldsArbitrary,
    },
    { requiredKeys: ["name", "family", "think", "call", "execute", "respond", "end", "results"] },
  );
  const hermes = fc.record(
    {
      name: fc.constant("h"),
      family: fc.constant("hermes" as const),
      think: pair,
      call: pair,
      results: pair,
      fields: fieldsArbitrary,
    },
    { requiredKeys: ["name", "family", "think", "call", "results"] },
  );
  return fc
    .oneof(tags, delimiter, hermes)
    .map((definition) => parseDefinition(definition))
    .filter((checked) => checked.ok)
    .map((checked) => (checked.ok ? checked.definition : (undefined as never)));
}

/** Text built from the definition's own markers, pieces of them, JSON and junk. */
function textArbitrary(definition: DialectDefinition): fc.Arbitrary<string> {
  const markers = definitionMarkers(definition).map((marker) => marker.text);
  const pieces = [
    ...markers,
    ...markers.map((marker) => marker.slice(0, -1)).filter((piece) => piece !== ""),
    '{"name": "ls", "args": {}, "arguments": {}}',
    '[{"name": "ls", "args": {"a": "',
    '"}}]',
    '"',
    "\\",
    "{",
    "}",
    "word",
    " ",
    "\n",
    "😀",
  ];
  return fc.array(fc.constantFrom(...pieces), { maxLength: 14 }).map((parts) => parts.join(""));
}

describe("custom dialects: the guarantees every dialect gives hold for random definitions", () => {
  it("chunk invariance, spans inside the text, nothing lost", () => {
    fc.assert(
      fc.property(
        definitionArbitrary(anyMarker).chain((definition) =>
          fc.tuple(fc.constant(definition), textArbitrary(definition)),
        ),
        ([definition, text]) => {
          const events = parseInvariant(definition, text, { runs: 4, maxEveryIndex: 120 });
          expect(uncovered(text, events)).toEqual([]);
          for (const event of events) {
            if (!("span" in event) || event.span === undefined) continue;
            expect(event.span.start).toBeGreaterThanOrEqual(0);
            expect(event.span.end).toBeLessThanOrEqual(text.length);
            expect(event.span.start).toBeLessThanOrEqual(event.span.end);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("round-trips conversations through the encoder", () => {
    fc.assert(
      fc.property(
        definitionArbitrary(safeMarker).chain((definition) =>
          fc.tuple(fc.constant(definition), turnArbitrary(definition)),
        ),
        ([definition, events]) => {
          const text = encodeTurn(definition, events);
          const parsed = parseInvariant(definition, text, { runs: 3, maxEveryIndex: 0 });
          expect(conversation(parsed)).toEqual(conversation(events));
          expect(parsed.filter((event) => event.type === "error")).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});

function conversation(events: readonly ProtocolEvent[]): unknown[] {
  return events.flatMap((event) => {
    switch (event.type) {
      case "think":
      case "respond":
        return [{ type: event.type, content: event.content }];
      case "call":
        return [{ type: "call", name: event.call.name, args: event.call.args }];
      case "end":
        return [{ type: "end" }];
      default:
        return [];
    }
  });
}

/** Trimmed content with none of the definition's markers, that no closer can swallow. */
function contentArbitrary(definition: DialectDefinition): fc.Arbitrary<string> {
  const markers = definitionMarkers(definition).map((marker) => marker.text);
  const pieces = ["a", "Z", " ", "\n", "<", ">", "/", "§", "#", "|", ":", "é", "😀", "{", '"'];
  return fc
    .array(fc.constantFrom(...pieces), { maxLength: 20 })
    .map((parts) => parts.join("").trim())
    .filter((text) =>
      markers.every(
        (marker) => !text.includes(marker) && (text + marker).indexOf(marker) === text.length,
      ),
    );
}

const jsonValue = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.constantFrom("<think>", "§end", "</tool_call>", 'say "hi"', "a\\b", "line\nbreak"),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);

function turnArbitrary(definition: DialectDefinition): fc.Arbitrary<ProtocolEvent[]> {
  const base = { id: "x", timestamp: 0, turn: 0, span: { start: 0, end: 0 } };
  const text = (type: "think" | "respond") =>
    contentArbitrary(definition).map((content): ProtocolEvent => ({ ...base, type, content }));
  const call = fc
    .record({
      name: fc.constantFrom("list", "read"),
      args: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), jsonValue, { maxKeys: 3 }),
    })
    .map(
      ({ name, args }): ProtocolEvent => ({ ...base, type: "call", call: { id: "c", name, args } }),
    );
  const middle = fc.array(fc.oneof(text("think"), call), { maxLength: 5 });
  const answer = fc.option(text("respond"), { nil: undefined });
  // Responses are bare text where a family has no respond markers: one, non-empty, at the end.
  const bare =
    definition.family === "hermes" ||
    (definition.family === "tags" && definition.respond === undefined);
  const hasEnd =
    definition.family === "delimiter" ||
    (definition.family === "tags" && definition.end !== undefined);
  return fc.tuple(middle, answer, fc.boolean()).map(([events, respond, end]) => {
    const turn = [...events];
    if (respond !== undefined && !(bare && respond.type === "respond" && respond.content === ""))
      turn.push(respond);
    if (end && hasEnd) turn.push({ id: "e", timestamp: 0, type: "end" });
    return turn;
  });
}

describe("custom dialects: counterexamples the properties found, pinned", () => {
  const delimiter = (markers: Record<string, string>): DialectDefinition => ({
    name: "d",
    family: "delimiter",
    think: "T:",
    call: "C:",
    execute: "X!",
    respond: "R:",
    end: "E!",
    results: "S:",
    ...markers,
  });

  it('a partial marker starting with `"` inside a JSON body does not toggle the string twice', () => {
    const definition = delimiter({ think: "[", results: '"{' });
    const text = '"{"["';
    const events = parseInvariant(definition, text, { runs: 10 });
    expect(uncovered(text, events)).toEqual([]);
  });

  it("a lone high surrogate as the whole text is kept (delimiter built-in too)", () => {
    for (const dialect of [delimiter({ results: "😀" }), "delimiter" as const]) {
      const events = parseInvariant(dialect, "\ud83d", { runs: 1 });
      expect(events.map((event) => event.type === "respond" && event.content)).toEqual(["\ud83d"]);
    }
  });
});
