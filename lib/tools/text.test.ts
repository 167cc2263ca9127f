import { describe, expect, it } from "vitest";
import { linePieces } from "./line-pieces";
import { formatBytes, looksBinary, plural, utf8Prefix } from "./text";

describe("utf8Prefix", () => {
  it("backs up to a character boundary", () => {
    const bytes = Buffer.from("aé€", "utf8"); // 1 + 2 + 3 bytes
    expect(utf8Prefix(bytes, 2).toString()).toBe("a");
    expect(utf8Prefix(bytes, 3).toString()).toBe("aé");
    expect(utf8Prefix(bytes, 5).toString()).toBe("aé");
    expect(utf8Prefix(bytes, 6).toString()).toBe("aé€");
  });
});

describe("formatting", () => {
  it("formats sizes and counts", () => {
    expect([formatBytes(12), formatBytes(1536), formatBytes(1024 * 1024)]).toEqual([
      "12 B",
      "1.5 KiB",
      "1 MiB",
    ]);
    expect([plural(1, "line"), plural(2, "entry", "entries")]).toEqual(["1 line", "2 entries"]);
  });

  it("sniffs binary by NUL bytes", () => {
    expect(looksBinary(Buffer.from("plain text"))).toBe(false);
    expect(looksBinary(Buffer.from([65, 0, 66]))).toBe(true);
  });
});

describe("linePieces", () => {
  it("splits at newlines across chunk boundaries", async () => {
    async function* chunks() {
      yield Buffer.from("ab\ncd");
      yield Buffer.from("ef\n\ngh");
    }
    const pieces: [string, boolean][] = [];
    for await (const piece of linePieces(chunks()))
      pieces.push([piece.bytes.toString(), piece.endsLine]);
    expect(pieces).toEqual([
      ["ab\n", true],
      ["cd", false],
      ["ef\n", true],
      ["\n", true],
      ["gh", false],
    ]);
  });
});
