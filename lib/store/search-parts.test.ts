import { describe, expect, it } from "vitest";
import { SEARCH_LEAD_CHARS, SEARCH_PART_CHARS, searchPartWrites } from "./search-parts";
import { SEARCH_BLOCK_MAX } from "./search-text";

const chars = (text: string) => [...text].length;
const PART = SEARCH_PART_CHARS;

describe("searchPartWrites: where a block's next piece of search text is stored", () => {
  it("starts a block in parts of SEARCH_PART_CHARS characters, each led by the end of the last", () => {
    const text = `${"a".repeat(PART)}${"b".repeat(PART)}${"c".repeat(176)}`;
    const { extend, added } = searchPartWrites(text, undefined);
    expect(extend).toBe("");
    expect(added).toEqual([
      { part: 0, text: "a".repeat(PART), lead: "" },
      { part: 1, text: "b".repeat(PART), lead: "a".repeat(SEARCH_LEAD_CHARS) },
      { part: 2, text: "c".repeat(176), lead: "b".repeat(SEARCH_LEAD_CHARS) },
    ]);
  });

  it("fills the last part first; a new part's lead is the end of the part it filled", () => {
    const tail = "t".repeat(SEARCH_LEAD_CHARS);
    const text = `${"y".repeat(PART - 176)}zz`;
    expect(searchPartWrites(text, { part: 2, length: 176, tail })).toEqual({
      extend: "y".repeat(PART - 176),
      added: [{ part: 3, text: "zz", lead: "y".repeat(SEARCH_LEAD_CHARS) }],
    });
    // A fill shorter than a lead: the lead is the old tail's end, then the fill.
    const short = searchPartWrites("yyyzz", { part: 2, length: PART - 3, tail });
    expect(short.added).toEqual([{ part: 3, text: "zz", lead: `${tail.slice(3)}yyy` }]);
    expect(searchPartWrites("abc", { part: 4, length: 10, tail: "x" })).toEqual({
      extend: "abc",
      added: [],
    });
    expect(searchPartWrites("abc", { part: 4, length: PART, tail })).toEqual({
      extend: "",
      added: [{ part: 5, text: "abc", lead: tail }],
    });
  });

  it("counts characters, never cutting a surrogate pair", () => {
    const text = `${"a".repeat(PART - 1)}😀b😀`;
    const { added } = searchPartWrites(text, undefined);
    expect(added.map(({ text }) => text)).toEqual([`${"a".repeat(PART - 1)}😀`, "b😀"]);
    expect(chars(added[0]?.text ?? "")).toBe(PART);
    expect(added[1]?.lead).toBe(`${"a".repeat(SEARCH_LEAD_CHARS - 1)}😀`);
    const filled = searchPartWrites("😀😀😀", { part: 0, length: PART - 2, tail: "😀".repeat(70) });
    expect(filled).toEqual({
      extend: "😀😀",
      added: [{ part: 1, text: "😀", lead: "😀".repeat(SEARCH_LEAD_CHARS) }],
    });
    // A lone surrogate (malformed text) is one character.
    expect(searchPartWrites("\ud83dx", { part: 0, length: PART - 1, tail: "" })).toEqual({
      extend: "\ud83d",
      added: [{ part: 1, text: "x", lead: "\ud83d" }],
    });
  });

  it("keeps nothing past SEARCH_BLOCK_MAX characters", () => {
    const { added } = searchPartWrites("x".repeat(SEARCH_BLOCK_MAX + 1000), undefined);
    expect(added).toHaveLength(SEARCH_BLOCK_MAX / PART);
    expect(added.reduce((sum, { text }) => sum + text.length, 0)).toBe(SEARCH_BLOCK_MAX);
    const lastPart = SEARCH_BLOCK_MAX / PART - 1;
    expect(searchPartWrites("more", { part: lastPart, length: PART, tail: "" })).toEqual({
      extend: "",
      added: [],
    });
  });
});
