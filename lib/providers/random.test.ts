import { describe, expect, it } from "vitest";
import { createRandom, splitIntoChunks } from "./random";

describe("splitIntoChunks", () => {
  it("joins back to the text and keeps sizes within bounds", () => {
    const text = "<think>a</think>\n§call: {}".repeat(20);
    for (const seed of [1, 2, 3]) {
      const chunks = splitIntoChunks(text, 7, createRandom(seed));
      expect(chunks.join("")).toBe(text);
      expect(chunks.every((chunk) => chunk.length >= 1 && chunk.length <= 7)).toBe(true);
    }
  });

  it("never splits a surrogate pair", () => {
    const text = "😀".repeat(30);
    const chunks = splitIntoChunks(text, 3, createRandom(5));
    expect(chunks.join("")).toBe(text);
    expect(chunks.every((chunk) => chunk.length % 2 === 0)).toBe(true);
  });

  it("rejects a chunk size below 1", () => {
    expect(() => splitIntoChunks("abc", 0, createRandom(1))).toThrow(/positive integer/);
  });
});
