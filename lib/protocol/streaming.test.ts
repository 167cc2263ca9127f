/**
 * Immediacy and boundedness (docs/README.md): pieces leave the parser as soon as they cannot be
 * part of a marker, and only a partial marker is ever held between chunks — so the work
 * per chunk does not grow with the text already seen.
 */
import { describe, expect, it } from "vitest";
import type { Dialect } from "./events";
import { createParser } from "./parser";
import type { Scanner } from "./scanner";

const OPEN: Record<Dialect, string> = {
  xml: "<think>",
  delimiter: "§think: ",
  action: "<thought>",
  hermes: "<think>",
};
const CALL: Record<Dialect, [string, string]> = {
  xml: ['<execute>[{"name": "write", "args": {"content": "', '"}}]</execute>'],
  delimiter: ['§call: {"name": "write", "args": {"content": "', '"}}\n§execute'],
  action: ['<action type="tool">{"name": "write", "parameters": {"content": "', '"}}</action>'],
  hermes: ['<tool_call>{"name": "write", "arguments": {"content": "', '"}}</tool_call>'],
};
const CLOSE: Record<Dialect, string> = {
  xml: "</think>",
  delimiter: "\n",
  action: "</thought>",
  hermes: "</think>",
};
const heldBy = (parser: unknown) => (parser as Scanner).held;

describe.each(["xml", "delimiter", "action", "hermes"] as const)("%s streaming", (dialect) => {
  it("shows each reasoning character the moment it arrives", () => {
    const parser = createParser(dialect);
    parser.feed(OPEN[dialect]);
    const text = "Let me look at the files, then decide <maybe> § [x].";
    let shown = "";
    for (const char of text) {
      const pieces = parser.feed(char).filter((event) => event.type === "think");
      const got = pieces.map((event) => (event.type === "think" ? event.content : "")).join("");
      // Whitespace waits for the next visible character (trailing blanks are trimmed);
      // a character that may start a marker waits for the next one to rule it out.
      if (char !== " " && char !== "<" && char !== "§" && char !== "[")
        expect(got.endsWith(char)).toBe(true);
      shown += got;
    }
    expect(text.startsWith(shown)).toBe(true);
    expect(shown.length).toBeGreaterThan(text.length - 2);
  });

  it("holds back at most a partial marker, however long the block", () => {
    const parser = createParser(dialect);
    const [head, tail] = CALL[dialect];
    let maxHeld = 0;
    for (const chunk of [OPEN[dialect], "x".repeat(5000), CLOSE[dialect], head]) {
      for (const char of chunk) {
        parser.feed(char);
        maxHeld = Math.max(maxHeld, heldBy(parser));
      }
    }
    for (let i = 0; i < 20_000; i++) {
      parser.feed(i % 97 === 0 ? '\\"' : "y");
      maxHeld = Math.max(maxHeld, heldBy(parser));
    }
    const events = [...parser.feed(tail), ...parser.end()];
    expect(maxHeld).toBeLessThanOrEqual(12);
    const call = events.find((event) => event.type === "call");
    expect(call?.type === "call" && String(call.call.args.content).length).toBe(20_000);
  });
});
