import type { LanguageModelV3Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { type DialectDefinition, encodeResults, mergePieces, parseAll } from "../protocol";
import { definitionTurn } from "./demo-definition";

const DEFINITIONS: DialectDefinition[] = [
  {
    name: "reasoner",
    family: "tags",
    think: ["<reasoning>", "</reasoning>"],
    batch: ["<tools>", "</tools>"],
    results: ["<obs>", "</obs>"],
    fields: { name: "tool", args: "input" },
  },
  {
    name: "react",
    family: "delimiter",
    think: "Thought:",
    call: "Action:",
    execute: "Go!",
    respond: "Answer:",
    end: "Done!",
    results: "[Observation:",
  },
  {
    name: "qwenish",
    family: "hermes",
    think: ["<reasoning>", "</reasoning>"],
    call: ["<tool>", "</tool>"],
    results: ["<output>", "</output>"],
    fields: { name: "tool", args: "input" },
  },
];

const user = (text: string) => ({
  role: "user" as const,
  content: [{ type: "text" as const, text }],
});

describe.each(DEFINITIONS)(
  "the demo model in a user-defined dialect ($name, $family)",
  (definition) => {
    it("calls a tool in the definition's markers, then reads the results written in them", () => {
      const first = definitionTurn(definition, [user("list the files")] as LanguageModelV3Prompt);
      const events = mergePieces(parseAll(definition, first));
      expect(events.filter((event) => event.type === "error")).toEqual([]);
      expect(events.flatMap((event) => (event.type === "call" ? [event.call.name] : []))).toEqual([
        "list",
      ]);

      const payload = {
        tool: "list",
        status: "success" as const,
        content: { path: ".", entries: [{ path: "README.md", type: "file" }] },
        outcome: "",
        durationMs: 1,
      };
      const results = encodeResults(definition, [{ callId: "c1", payload }]);
      const second = definitionTurn(definition, [
        user("list the files"),
        { role: "assistant", content: [{ type: "text", text: first }] },
        user(results),
      ] as LanguageModelV3Prompt);
      const answer = mergePieces(parseAll(definition, second));
      expect(answer.filter((event) => event.type === "error")).toEqual([]);
      const text = answer.map((event) => (event.type === "respond" ? event.content : "")).join("");
      expect(text).toContain("`list` found 1 entry: README.md.");
    });
  },
);
