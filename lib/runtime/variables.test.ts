import { describe, expect, it } from "vitest";
import { references, resolveText, substitute, textForm } from "./variables";

const variables = new Map<string, unknown>([
  ["name", "Ada"],
  ["data", { rows: [1, 2] }],
  ["count", 3],
  ["nothing", null],
]);

describe("substitute", () => {
  it("replaces an exact reference by the value itself, whatever its type", () => {
    expect(substitute({ a: "$data", b: "$count", c: "$nothing" }, variables)).toEqual({
      value: { a: { rows: [1, 2] }, b: 3, c: null },
      unknown: [],
    });
  });

  it("replaces embedded references by their text form, recursively", () => {
    const value = { deep: [{ text: "Hi $name, $count rows: $data." }], keep: 7, $name: true };
    expect(substitute(value, variables).value).toEqual({
      deep: [{ text: 'Hi Ada, 3 rows: {"rows":[1,2]}.' }],
      keep: 7,
      $name: true,
    });
  });

  it("leaves unknown references literal and lists each once", () => {
    const result = substitute({ a: "$who", b: "$who and $what", c: "costs $5" }, variables);
    expect(result.value).toEqual({ a: "$who", b: "$who and $what", c: "costs $5" });
    expect(result.unknown).toEqual(["who", "what"]);
  });

  it("takes the longest name", () => {
    expect(substitute("$name_full", variables).unknown).toEqual(["name_full"]);
  });

  it("does not change its input", () => {
    const input = { list: ["$name"] };
    substitute(input, variables);
    expect(input).toEqual({ list: ["$name"] });
  });
});

describe("resolveText", () => {
  it("resolves response text and reports unknown names", () => {
    expect(resolveText("$name found $count; see $later.", variables)).toEqual({
      text: "Ada found 3; see $later.",
      unknown: ["later"],
    });
  });
});

describe("references and textForm", () => {
  it("lists every referenced name once", () => {
    expect(references({ a: ["$x", "$y and $x"], b: { c: "$z" }, d: 1 })).toEqual(["x", "y", "z"]);
  });

  it("writes strings as they are and anything else as JSON", () => {
    expect(textForm("plain")).toBe("plain");
    expect(textForm([1, "a"])).toBe('[1,"a"]');
    expect(textForm(undefined)).toBe("undefined");
  });
});
