import { describe, expect, it } from "vitest";
import { loadWireHighlighter } from "./wire-highlighter";
import { type Run, tokenizeLines } from "./wire-runs";

const HERMES = `<think>Two cities.</think>\nI'll look.\n<tool_call>\n{"name": "weather", "arguments": {"note": "</tool_call>"}}\n</tool_call>\n<tool_response>\n{"name": "weather", "content": "18 °C"}\n</tool_response>`;

function colourOf(runs: readonly Run[], needle: string, after = 0): string | undefined {
  const at = HERMES.indexOf(needle, after);
  return runs.find((run) => run.start <= at && at < run.end)?.color;
}

describe("wire grammar: hermes", () => {
  it("colours <tool_call> as a tag with a JSON body and <tool_response> as system text", async () => {
    const highlighter = await loadWireHighlighter();
    const runs = tokenizeLines(highlighter, HERMES, 0, { lang: "wire" }).lines.flat();
    expect(colourOf(runs, "tool_call>")).toBe("var(--wire-tag)");
    expect(colourOf(runs, "Two cities")).toBe("var(--wire-think)");
    expect(colourOf(runs, `"arguments"`)).toBe("var(--wire-key)");
    // `</tool_call>` inside a JSON string is string content, as for the parser.
    expect(colourOf(runs, `</tool_call>"`)).toBe("var(--wire-string)");
    expect(colourOf(runs, "tool_response>")).toBe("var(--wire-system)");
  });
});
