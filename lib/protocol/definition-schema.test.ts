import { describe, expect, it } from "vitest";
import { BUILTIN_DEFINITIONS } from "./definition";
import { closesLikeJson, parseDefinition } from "./definition-schema";

const valid = {
  name: "reasoner",
  family: "tags",
  think: ["<reasoning>", "</reasoning>"],
  batch: ["<tools>", "</tools>"],
  results: ["<observations>", "</observations>"],
  fields: { name: "tool", args: "input" },
};

describe("parseDefinition", () => {
  it("accepts a valid definition and returns it unchanged", () => {
    expect(parseDefinition(valid)).toEqual({ ok: true, definition: valid });
  });

  it("accepts each built-in's markers under a new name", () => {
    for (const builtin of Object.values(BUILTIN_DEFINITIONS)) {
      expect(parseDefinition({ ...builtin, name: `my-${builtin.name}` }).ok).toBe(true);
    }
  });

  it.each([
    ["an empty marker", { ...valid, think: ["", "</reasoning>"] }, "think.0: must not be empty"],
    [
      "a marker with surrounding whitespace",
      { ...valid, batch: ["<tools> ", "</tools>"] },
      "batch.0: must not start or end with whitespace",
    ],
    [
      "a two-line marker",
      { ...valid, results: ["<o>", "</o\n>"] },
      "results.1: must be on one line",
    ],
    [
      "a marker that turns the text right-to-left",
      { ...valid, think: ["\u202e<r>", "</r>"] },
      "think.0: must not hold control, invisible or direction-changing characters (U+202E)",
    ],
    [
      "a marker with a zero-width space",
      { ...valid, results: ["<o>", "</\u200bo>"] },
      "results.1: must not hold control, invisible or direction-changing characters (U+200B)",
    ],
    [
      "a marker with a control character",
      { ...valid, batch: ["<t\u0007>", "</t>"] },
      "batch.0: must not hold control, invisible or direction-changing characters (U+0007)",
    ],
    [
      "a marker too long",
      { ...valid, think: ["<".repeat(33), "</r>"] },
      "think.0: must be at most 32 characters",
    ],
    [
      "two equal markers",
      { ...valid, batch: ["<reasoning>", "</tools>"] },
      'batch.0: must differ from think.0 (both are "<reasoning>")',
    ],
    [
      "one marker a prefix of another",
      { ...valid, batch: ["<reason", "</tools>"] },
      'batch.0: "<reason" and think.0 "<reasoning>": one is a prefix of the other',
    ],
    [
      "a batch closed by a marker the JSON's own brackets end like",
      { ...valid, batch: ["<tools>", "]]"] },
      'batch.1: "]]" could be the end of the JSON before it',
    ],
    [
      "a hermes call closed by braces",
      {
        name: "braces",
        family: "hermes",
        think: ["<t>", "</t>"],
        call: ["{{", "}}"],
        results: ["<r>", "</r>"],
      },
      'call.1: "}}" could be the end of the JSON before it',
    ],
    ["an unknown family", { ...valid, family: "json" }, "family: must be one of"],
    ["a missing marker", { ...valid, batch: undefined }, "batch:"],
    ["a bad name", { ...valid, name: "Has Spaces" }, "name: must be 1–40 lowercase"],
    ["a built-in's name", { ...valid, name: "hermes" }, "name: is the name of a built-in dialect"],
    [
      "equal field names",
      { ...valid, fields: { name: "x", args: "x" } },
      "fields.args: name and args must differ",
    ],
    ["an unknown field", { ...valid, extra: 1 }, "Unrecognized key"],
    [
      "delimiter markers that collide",
      {
        name: "d",
        family: "delimiter",
        think: "T:",
        call: "C:",
        execute: "C:x",
        respond: "R:",
        end: "E",
        results: "S:",
      },
      'execute: "C:x" and call "C:": one is a prefix of the other',
    ],
  ])("refuses %s, naming the field", (_name, input, message) => {
    const checked = parseDefinition(input);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toContain(message);
  });

  it("takes a JSON-closing marker that starts with a bracket but goes on apart from JSON", () => {
    for (const close of ["}END", "]>", "} done", "}]>"])
      expect(parseDefinition({ ...valid, batch: ["<tools>", close] }).ok, close).toBe(true);
    for (const close of ["}}", "]]", "}]", "} }", "]"])
      expect(closesLikeJson(close), close).toBe(true);
    for (const close of ["}END", "]>", "}x}x", "</execute>", "}}END"])
      expect(closesLikeJson(close), close).toBe(false);
  });

  it("prefixes the path it was given", () => {
    const checked = parseDefinition({ ...valid, think: ["", "x"] }, "dialect");
    expect(checked).toEqual({ ok: false, error: "dialect.think.0: must not be empty" });
  });
});
