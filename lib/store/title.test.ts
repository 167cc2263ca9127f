import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutTitle, normalizeTitle, titleFromMessage } from "./meta";

describe("normalizeTitle", () => {
  it.each([
    ["  plain  title ", "plain title"],
    ["nul\u0000in\u0007the middle", "nul in the middle"],
    ["lone \ud800 high and \udc00 low", "lone \ufffd high and \ufffd low"],
    ["pair 😀 kept", "pair 😀 kept"],
    ["family 👨\u200d👩\u200d👧 kept", "family 👨\u200d👩\u200d👧 kept"],
    ["\u202eevil.exe", "evil.exe"],
    ["tab\tand\nnewline", "tab and newline"],
  ])("normalizes %j", (title, expected) => {
    expect(normalizeTitle(title)).toBe(expected);
  });

  it.each([["\u200b\u200c\u200d"], ["\ufeff \u2060"], ["\u0000\u0000"], ["   "], [""]])(
    "refuses %j: nothing visible is left",
    (title) => {
      expect(normalizeTitle(title)).toBeUndefined();
    },
  );
});

describe("cutTitle", () => {
  it.each([
    ["short", 10, "short"],
    ["exactly ten", 11, "exactly ten"],
    ["a longer title", 8, "a longe…"],
    // The cut would fall inside the pair: the emoji goes whole.
    [`${"x".repeat(8)}😀 after`, 10, `${"x".repeat(8)}…`],
    // A joined family is one grapheme: never half of it.
    [`${"x".repeat(5)}👨\u200d👩\u200d👧 after`, 12, `${"x".repeat(5)}…`],
    // A letter and its combining accent stay together.
    [`${"x".repeat(8)}e\u0301e\u0301`, 10, `${"x".repeat(8)}…`],
    // A first grapheme longer than the title may be: cut inside it, by code points.
    [`e${"\u0301".repeat(100)}`, 10, `e${"\u0301".repeat(8)}…`],
    [`😀${"\u0301".repeat(100)}`, 4, "😀\u0301…"],
    [`x😀${"\u0301".repeat(100)}`, 3, "x…"],
    [`😀😀${"\u0301".repeat(100)}`, 4, "😀…"],
  ])("cuts %j to %i", (title, max, expected) => {
    const cut = cutTitle(title, max);
    expect(cut).toBe(expected);
    expect(cut.length).toBeLessThanOrEqual(max);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe("cutTitle on the text's start only", () => {
  /** The cut as made over the whole text's graphemes (before it looked at the start only). */
  function wholeCut(title: string, max: number): string {
    if (title.length <= max) return title;
    let end = 0;
    for (const { segment } of new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(
      title,
    )) {
      if (end + segment.length > max - 1) break;
      end += segment.length;
    }
    if (end === 0) {
      end = max - 1;
      if (/[\ud800-\udbff]/.test(title.charAt(end - 1))) end--;
    }
    return `${title.slice(0, end)}…`;
  }

  it("keeps what cutting the whole text's graphemes keeps (property)", () => {
    const unit = fc.constantFrom(
      "x",
      " ",
      "e\u0301",
      "\u0301",
      "😀",
      "\u200d",
      "👨",
      "🇺",
      "🇸",
      "\ud83d",
    );
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 60 }),
        fc.integer({ min: 2, max: 40 }),
        (units, max) => {
          const title = units.join("");
          expect(cutTitle(title, max)).toBe(wholeCut(title, max));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("titleFromMessage", () => {
  it.each([
    ["list the files\nand more", "list the files"],
    ["\u202egnp.exe list the files", "gnp.exe list the files"],
    ["\u200b\u200b", "Untitled"],
    [`${"x".repeat(70)}`, `${"x".repeat(57)}…`],
  ])("titles %j as %j", (message, title) => {
    expect(titleFromMessage(message)).toBe(title);
  });
});
