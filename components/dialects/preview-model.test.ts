import { describe, expect, it } from "vitest";
import { HERMES_DEFINITION } from "@/lib/protocol";
import { previewOf } from "./preview-model";

const REASONER = {
  name: "reasoner",
  family: "tags" as const,
  think: ["<reasoning>", "</reasoning>"] as [string, string],
  batch: ["<tools>", "</tools>"] as [string, string],
  results: ["<obs>", "</obs>"] as [string, string],
  fields: { name: "tool", args: "input" },
};

describe("previewOf", () => {
  it("lists the sample's events and cuts the text by their spans", () => {
    const sample = '<reasoning>plan</reasoning>\n<tools>[{"tool": "ls", "input": {}}]</tools>';
    const { rows, segments } = previewOf(REASONER, sample);
    expect(rows.map((row) => [row.type, row.text])).toEqual([
      ["think", "plan"],
      ["call", "ls {}"],
      ["execute", ""],
    ]);
    expect(segments.map((segment) => segment.text).join("")).toBe(sample);
    // The call keeps its own colour inside the execute block that holds it.
    expect(segments.find((segment) => segment.text === '{"tool": "ls", "input": {}}')?.type).toBe(
      "call",
    );
    expect(segments.find((segment) => segment.text === "\n")?.type).toBeNull();
  });

  it("shows malformed text as error rows with their spans", () => {
    const sample = '<tool_call>{"name": "ls"}</tool_call>';
    const { rows } = previewOf(HERMES_DEFINITION, sample);
    expect(rows[0]).toMatchObject({ type: "error", start: 0, end: sample.length });
    expect(rows[0]?.text).toMatch(/^invalid_call: /);
  });
});
