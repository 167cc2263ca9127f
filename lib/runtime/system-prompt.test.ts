import { describe, expect, it } from "vitest";
import { mergePieces } from "../protocol/merge";
import { parseAll } from "../protocol/parser";
import { systemPrompt } from "./system-prompt";

const tools = [
  {
    name: "read",
    description: "Reads a file.",
    inputSchema: { type: "object", properties: { file: { type: "string" } } },
  },
];

describe.each(["xml", "delimiter", "action", "hermes"] as const)("%s system prompt", (dialect) => {
  it("lists the tools with their schemas", () => {
    const prompt = systemPrompt(dialect, tools);
    expect(prompt).toContain(
      '- read: Reads a file.\n  arguments (JSON Schema): {"type":"object","properties":{"file":{"type":"string"}}}',
    );
  });

  it("has a worked example the parser reads as two calls and an answer", () => {
    const prompt = systemPrompt(dialect, tools);
    const example = prompt.slice(
      prompt.indexOf("Example:\n\n") + 10,
      prompt.indexOf("(the system answers)"),
    );
    const events = mergePieces(parseAll(dialect, example));
    expect(
      events
        .filter((event) => event.type === "call")
        .map((event) => event.type === "call" && event.call.name),
    ).toEqual(["list", "read"]);
    expect(events.filter((event) => event.type === "error")).toEqual([]);
  });
});

describe("a custom dialect's system prompt", () => {
  const definition = {
    name: "reasoner",
    family: "hermes" as const,
    think: ["<reasoning>", "</reasoning>"] as [string, string],
    call: ["<tool>", "</tool>"] as [string, string],
    results: ["<output>", "</output>"] as [string, string],
    fields: { name: "tool", args: "input" },
  };

  it("teaches its own markers and field names", () => {
    const prompt = systemPrompt(definition, tools);
    expect(prompt).toContain("Protocol (reasoner):");
    expect(prompt).toContain('<tool>{"tool": "tool", "input": {…}}</tool>');
    expect(prompt).not.toContain("<tool_call>");
  });

  it("has a worked example, written by the encoder, that its parser reads", () => {
    const prompt = systemPrompt(definition, tools);
    const example = prompt.slice(
      prompt.indexOf("Example:\n\n") + 10,
      prompt.indexOf("(the system answers)"),
    );
    expect(example).toContain('<tool>\n{"tool":"list","input":{"path":"."}}\n</tool>');
    const events = mergePieces(parseAll(definition, example));
    expect(events.flatMap((event) => (event.type === "call" ? [event.call.name] : []))).toEqual([
      "list",
      "read",
    ]);
    expect(events.filter((event) => event.type === "error")).toEqual([]);
  });
});

describe("systemPrompt, written once per dialect and tools", () => {
  it("hands out the same prompt again, and another for any other name, description or schema", () => {
    const first = systemPrompt("xml", tools);
    // Descriptions are made anew by every registry's `describe()`: equal ones, equal prompts.
    expect(
      systemPrompt(
        "xml",
        tools.map((tool) => ({ ...tool })),
      ),
    ).toBe(first);
    const [read] = tools;
    if (read === undefined) throw new Error("no tool");
    const renamed = systemPrompt("xml", [{ ...read, name: "open" }]);
    expect(renamed).toContain("- open: Reads a file.");
    const described = systemPrompt("xml", [{ ...read, description: "Opens a file." }]);
    expect(described).toContain("- read: Opens a file.");
    const schema = { type: "object", properties: { path: { type: "string" } } };
    expect(systemPrompt("xml", [{ ...read, inputSchema: schema }])).toContain('"path"');
    expect(systemPrompt("action", tools)).not.toBe(first);
    expect(systemPrompt("xml", [])).toContain("No tools are available");
    expect(systemPrompt("xml", tools)).toBe(first);
  });
});
