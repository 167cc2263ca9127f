import { describe, expect, it } from "vitest";
import { characterCount, MAX_MESSAGE_CHARS } from "./limits";
import { runRequestSchema } from "./schema";

/** The first issue's field and message, or "ok". */
function verdict(body: unknown): string {
  const parsed = runRequestSchema.safeParse(body);
  if (parsed.success) return "ok";
  const issue = parsed.error.issues[0];
  return `${issue?.path.join(".")}: ${issue?.message}`;
}

describe("the message's length limit", () => {
  it("counts an emoji as one character, as the error says", () => {
    // 150,000 emoji: 300,000 UTF-16 code units, 150,000 characters, under the limit.
    expect(verdict({ message: "😀".repeat(150_000), dialect: "xml" })).toBe("ok");
    expect(verdict({ message: "😀".repeat(MAX_MESSAGE_CHARS), dialect: "xml" })).toBe("ok");
    expect(verdict({ message: "😀".repeat(MAX_MESSAGE_CHARS + 1), dialect: "xml" })).toBe(
      "message: must be at most 200,000 characters; it has 200,001",
    );
  });

  it("refuses one character past the limit, after trimming, in ASCII too", () => {
    const limit = "x".repeat(MAX_MESSAGE_CHARS);
    expect(verdict({ message: `  ${limit}\n`, dialect: "xml" })).toBe("ok");
    expect(verdict({ message: `${limit}y`, dialect: "xml" })).toBe(
      "message: must be at most 200,000 characters; it has 200,001",
    );
  });

  it("bounds the system prompt the same way", () => {
    expect(verdict({ message: "hi", dialect: "xml", system: "😀".repeat(400_000) })).toBe("ok");
    expect(verdict({ message: "hi", dialect: "xml", system: "s".repeat(500_001) })).toBe(
      "system: must be at most 500,000 characters; it has 500,001",
    );
  });
});

describe("characterCount", () => {
  it("counts code points: a surrogate pair is one, a lone surrogate one too", () => {
    expect(characterCount("")).toBe(0);
    expect(characterCount("abc")).toBe(3);
    expect(characterCount("😀é𠀀")).toBe(3);
    expect(characterCount("\ud83d")).toBe(1);
    expect(characterCount("\ude00\ud83d")).toBe(2);
    expect(characterCount("a\ud83d\ude00\ud83d")).toBe(3);
  });
});
