import { describe, expect, it } from "vitest";
import { diffText, type Range } from "./text-diff";

const cut = (text: string, ranges: Range[]) =>
  ranges.map((range) => text.slice(range.start, range.end));
/** The text left when the marked ranges are removed. */
const unmarked = (text: string, ranges: Range[]) => {
  let out = "";
  let at = 0;
  for (const range of ranges) {
    out += text.slice(at, range.start);
    at = range.end;
  }
  return out + text.slice(at);
};

describe("diffText", () => {
  it("marks nothing for equal texts", () => {
    expect(diffText("same", "same")).toEqual({ mode: "equal", a: [], b: [] });
  });

  it("marks the changed characters on each side", () => {
    const a = '<execute>[{"name":"read","args":{"path":"a.md"}}]';
    const b = '<execute>[{"name":"read","args":{"path":"b.md"}}]';
    const diff = diffText(a, b);
    expect(diff.mode).toBe("char");
    const at = a.indexOf("a.md");
    expect(diff.a).toEqual([{ start: at, end: at + 1 }]);
    expect(diff.b).toEqual([{ start: at, end: at + 1 }]);
  });

  it("leaves the common subsequence unmarked on both sides", () => {
    const a = "the quick brown fox jumps";
    const b = "a quick red fox leaps";
    const diff = diffText(a, b);
    expect(diff.mode).toBe("char");
    expect(unmarked(a, diff.a)).toBe(unmarked(b, diff.b));
    expect(unmarked(a, diff.a)).toContain("quick");
  });

  it("marks a pure insertion on one side only", () => {
    const diff = diffText("hello world", "hello big world");
    expect(diff.a).toEqual([]);
    expect(cut("hello big world", diff.b)).toEqual(["big "]);
  });

  it("never splits a surrogate pair", () => {
    const diff = diffText("x😀y", "x😁y");
    expect(cut("x😀y", diff.a)).toEqual(["😀"]);
    expect(cut("x😁y", diff.b)).toEqual(["😁"]);
  });

  it("falls back to lines past the character budget", () => {
    const a = "same line\nAAAAAAAAAA\nend\n";
    const b = "same line\nBBBBBBBBBB\nend\n";
    const diff = diffText(a, b, { maxDistance: 5, maxWork: 1_000 });
    expect(diff.mode).toBe("line");
    expect(cut(a, diff.a)).toEqual(["AAAAAAAAAA\n"]);
    expect(cut(b, diff.b)).toEqual(["BBBBBBBBBB\n"]);
  });

  it("marks everything between the common ends when even lines are over budget", () => {
    const a = `head ${"a\n".repeat(50)} tail`;
    const b = `head ${"b\n".repeat(50)} tail`;
    const diff = diffText(a, b, { maxDistance: 5, maxWork: 1_000 });
    expect(diff.mode).toBe("whole");
    expect(diff.a).toEqual([{ start: 5, end: a.length - 6 }]);
    expect(diff.b).toEqual([{ start: 5, end: b.length - 6 }]);
  });

  it("stays bounded on two long, entirely different texts", () => {
    let seed = 1;
    const random = () => {
      seed = (seed * 48271) % 2147483647;
      return seed;
    };
    const text = () =>
      Array.from({ length: 200_000 }, () => String.fromCharCode(97 + (random() % 26))).join("");
    const diff = diffText(text(), text());
    // Over the character budget: one line each, so the line diff marks both whole, no hang.
    expect(diff.mode).toBe("line");
    expect(diff.a).toEqual([{ start: 0, end: 200_000 }]);
  });
});

describe("diffText marks that read", () => {
  it("joins a replaced phrase into one mark per side instead of a comb of letters", () => {
    const a = "`list` found 4 entries: README.md, config.json, notes/, src/.";
    const b = "`list` found no files.";
    const diff = diffText(a, b);
    expect(diff.a).toHaveLength(1);
    expect(diff.b).toHaveLength(1);
    expect(cutOf(b, diff.b)).toEqual(["no files"]);
  });

  it("keeps two changes apart when what they share is long enough to read", () => {
    const diff = diffText("read a.md then b.md", "read x.md then y.md");
    expect(cutOf("read x.md then y.md", diff.b)).toEqual(["x", "y"]);
  });
});

function cutOf(text: string, ranges: Range[]): string[] {
  return ranges.map((range) => text.slice(range.start, range.end));
}
