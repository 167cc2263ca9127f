import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ProtocolEvent } from "./events";
import { mergePieces } from "./merge";
import { createParser, parseAll } from "./parser";

/** The merged events of `text` fed in the given pieces. */
function parsed(text: string, cuts: readonly number[], maxBlockBytes?: number): ProtocolEvent[] {
  const parser = createParser("xml", {
    turn: 0,
    clock: () => 0,
    ...(maxBlockBytes === undefined ? {} : { maxBlockBytes }),
  });
  const events: ProtocolEvent[] = [];
  let from = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    events.push(...parser.feed(text.slice(from, Math.max(from, cut))));
    from = Math.max(from, cut);
  }
  events.push(...parser.feed(text.slice(from)), ...parser.end());
  return mergePieces(events);
}

const brief = (events: readonly ProtocolEvent[]) =>
  events.map((event) =>
    event.type === "error"
      ? `error:${event.code}`
      : `${event.type}:${"content" in event ? event.content : ""}`,
  );

describe("a think block ending the stream inside a block never closed", () => {
  it("is thinking after that block's error, however the text is split (property)", () => {
    const cases: [string, string[]][] = [
      ["<respond>Hel<think>R</think>\n", ["respond:Hel", "error:unclosed_block", "think:R"]],
      [
        "<respond>a <think> b<think>R</think> <think>S</think>",
        ["respond:a <think> b", "error:unclosed_block", "think:R", "think:S"],
      ],
      ['<execute>[{"name":"a"<think>R</think>', ["error:unclosed_block", "think:R"]],
      // Not at the end: the response's own text, however long it was held.
      ["<respond>use <think>x</think> tags</respond>", ["respond:use <think>x</think> tags"]],
      [
        "<respond>Hel<think>R</think> more",
        ["respond:Hel<think>R</think> more", "error:unclosed_block"],
      ],
    ];
    for (const [text, expected] of cases) {
      expect(brief(mergePieces(parseAll("xml", text, { turn: 0 })))).toEqual(expected);
      fc.assert(
        fc.property(fc.array(fc.nat(text.length), { maxLength: 6 }), (cuts) => {
          expect(brief(parsed(text, cuts))).toEqual(expected);
        }),
        { numRuns: 200 },
      );
    }
  });

  it("holds a response's text after a think opener no longer than a block may be", () => {
    const text = `<respond>a<think>${"x".repeat(5000)}`;
    const parser = createParser("xml", { turn: 0, maxBlockBytes: 1000 });
    const shown = parser.feed(text);
    // Past the bound it is the response's text, shown as it comes.
    expect(shown.map((event) => ("content" in event ? event.content : "")).join("")).toContain(
      "x".repeat(1000),
    );
    expect(brief(mergePieces([...shown, ...parser.end()]))).toEqual([
      `respond:a<think>${"x".repeat(5000)}`,
      "error:unclosed_block",
    ]);
  });
});
