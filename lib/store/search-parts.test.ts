import { describe, expect, it } from "vitest";
import { SEARCH_BLOCK_MAX, SEARCH_PART_CHARS, searchPartWrites } from "./search-text";

const chars = (text: string) => [...text].length;

describe("searchPartWrites: where a block's next piece of search text is stored", () => {
  it("starts a block in parts of SEARCH_PART_CHARS characters", () => {
    const text = "x".repeat(2 * SEARCH_PART_CHARS + 176);
    const { extend, added } = searchPartWrites(text, undefined);
    expect(extend).toBe("");
    expect(added.map(({ part, text }) => [part, text.length])).toEqual([
      [0, SEARCH_PART_CHARS],
      [1, SEARCH_PART_CHARS],
      [2, 176],
    ]);
  });

  it("fills the last part first, then adds parts after it", () => {
    const text = `${"y".repeat(SEARCH_PART_CHARS - 176)}zz`;
    expect(searchPartWrites(text, { part: 2, length: 176 })).toEqual({
      extend: "y".repeat(SEARCH_PART_CHARS - 176),
      added: [{ part: 3, text: "zz" }],
    });
    expect(searchPartWrites("abc", { part: 4, length: 10 })).toEqual({ extend: "abc", added: [] });
    expect(searchPartWrites("abc", { part: 4, length: SEARCH_PART_CHARS })).toEqual({
      extend: "",
      added: [{ part: 5, text: "abc" }],
    });
  });

  it("counts characters, never cutting a surrogate pair", () => {
    const text = `${"a".repeat(SEARCH_PART_CHARS - 1)}😀b😀`;
    const { added } = searchPartWrites(text, undefined);
    expect(added.map(({ text }) => text)).toEqual([
      `${"a".repeat(SEARCH_PART_CHARS - 1)}😀`,
      "b😀",
    ]);
    expect(chars(added[0]?.text ?? "")).toBe(SEARCH_PART_CHARS);
    const filled = searchPartWrites("😀😀😀", { part: 0, length: SEARCH_PART_CHARS - 2 });
    expect(filled).toEqual({ extend: "😀😀", added: [{ part: 1, text: "😀" }] });
    // A lone surrogate (malformed text) is one character.
    expect(searchPartWrites("\ud83dx", { part: 0, length: SEARCH_PART_CHARS - 1 })).toEqual({
      extend: "\ud83d",
      added: [{ part: 1, text: "x" }],
    });
  });

  it("keeps nothing past SEARCH_BLOCK_MAX characters", () => {
    const { added } = searchPartWrites("x".repeat(SEARCH_BLOCK_MAX + 1000), undefined);
    expect(added).toHaveLength(SEARCH_BLOCK_MAX / SEARCH_PART_CHARS);
    expect(added.reduce((sum, { text }) => sum + text.length, 0)).toBe(SEARCH_BLOCK_MAX);
    const lastPart = SEARCH_BLOCK_MAX / SEARCH_PART_CHARS - 1;
    expect(searchPartWrites("more", { part: lastPart, length: SEARCH_PART_CHARS })).toEqual({
      extend: "",
      added: [],
    });
  });
});
