import { describe, expect, it } from "vitest";
import { references, resolveText, substitute, textForm, variableValue } from "./variables";

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

  it("writes strings as they are, numbers as written, lists of those joined, else JSON", () => {
    expect(textForm("plain")).toBe("plain");
    expect(textForm(90)).toBe("90");
    expect(textForm(["a.md", "notes/", 3])).toBe("a.md, notes/, 3");
    expect(textForm([{ a: 1 }])).toBe('[{"a":1}]');
    expect(textForm({ rows: [1, 2] })).toBe('{"rows":[1,2]}');
    expect(textForm(undefined)).toBe("undefined");
  });
});

describe("variableValue", () => {
  it("takes a tool's output value, a workflow's last step's, other types' content", () => {
    expect(variableValue("tool", "calculate", { expression: "1+1", value: 2 })).toBe(2);
    expect(variableValue(undefined, "write", { file: "a.txt", bytes: 1 })).toBe("a.txt");
    const workflow = {
      workflow: "survey",
      steps: [
        { step: 0, tool: "list", content: { entries: [] } },
        { step: 1, tool: "calculate", content: { expression: "2*3", value: 6 } },
      ],
    };
    expect(variableValue("workflow", "survey", workflow)).toBe(6);
    expect(variableValue("relic", "calculate", { value: 1 })).toEqual({ value: 1 });
    expect(variableValue("llm", "summarize", "A summary.")).toBe("A summary.");
  });

  it("substitutes a response with the text form the page shows", () => {
    const values = new Map<string, unknown>([
      ["total", variableValue("tool", "calculate", { expression: "12 + 30 + 48", value: 90 })],
      ["files", variableValue("tool", "list", { entries: [{ path: "a.md", type: "file" }] })],
    ]);
    expect(resolveText("Total $total; files: $files.", values).text).toBe("Total 90; files: a.md.");
  });
});
