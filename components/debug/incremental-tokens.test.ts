import { describe, expect, it } from "vitest";
import { IncrementalTokens } from "./incremental-tokens";
import { loadWireHighlighter } from "./wire-highlighter";
import { type Run, tokenizeLines } from "./wire-runs";

const XML = `<think>The user wants files; I'll use \`list\`.</think>\n\n<execute>\n[\n  {"name":"list","args":{"path":"</execute>"}}\n]\n</execute>`;
const DELIMITER = `§think: plan\n§call: {"name":"read",\n "args":{"file":"§execute"}}\n§execute\r\n[SYSTEM: [{"tool":"read"}]]\n§respond: done 🙂\n§end`;
const ACTION = `<thought>x</thought>\n<action type="tool" mode='async' id="a1">\n{"name":"list","parameters":{}}\n</action>\n<response>ok</response>`;

function colourOf(runs: readonly Run[], text: string, needle: string): string | undefined {
  const at = text.indexOf(needle);
  return runs.find((run) => run.start <= at && at < run.end)?.color;
}

describe("wire grammar", () => {
  it("colours markers, attributes and embedded JSON in every dialect", async () => {
    const highlighter = await loadWireHighlighter();
    for (const text of [XML, DELIMITER, ACTION]) {
      const runs = tokenizeLines(highlighter, text, 0, { lang: "wire" }).lines.flat();
      expect(runs.length).toBeGreaterThan(3);
    }
    const xml = tokenizeLines(highlighter, XML, 0, { lang: "wire" }).lines.flat();
    expect(colourOf(xml, XML, "think>")).toBe("var(--wire-tag)");
    expect(colourOf(xml, XML, "The user")).toBe("var(--wire-think)");
    expect(colourOf(xml, XML, `"name"`)).toBe("var(--wire-key)");
    // `</execute>` inside a JSON string is string content, as for the parser.
    expect(colourOf(xml, XML, `</execute>"`)).toBe("var(--wire-string)");
    const action = tokenizeLines(highlighter, ACTION, 0, { lang: "wire" }).lines.flat();
    expect(colourOf(action, ACTION, "mode=")).toBe("var(--wire-attr)");
    const delimiter = tokenizeLines(highlighter, DELIMITER, 0, { lang: "wire" }).lines.flat();
    expect(colourOf(delimiter, DELIMITER, "§call:")).toBe("var(--wire-tag)");
    expect(colourOf(delimiter, DELIMITER, "SYSTEM:")).toBe("var(--wire-system)");
    expect(colourOf(delimiter, DELIMITER, `§execute"`)).toBe("var(--wire-string)");
  });
});

describe("IncrementalTokens", () => {
  it("gives the same runs as one pass, whatever the pieces", async () => {
    const highlighter = await loadWireHighlighter();
    for (const text of [XML, DELIMITER, ACTION]) {
      const whole = tokenizeLines(highlighter, text, 0, { lang: "wire" }).lines;
      for (const step of [1, 3, 7, 50]) {
        const tokens = new IncrementalTokens(highlighter);
        for (let end = step; end < text.length + step; end += step)
          tokens.update(text.slice(0, Math.min(end, text.length)));
        const lines = [...tokens.lines, tokens.tail];
        expect(lines).toEqual(whole);
        expect(tokens.covered).toBe(text.length);
      }
    }
  });
});
