/**
 * A raw import's title is cut from the start of the text's first line only: cutting reads
 * graphemes, and a log without line ends is one line of megabytes (0.5 s per 4 MiB of the
 * server's one event loop).
 */
import { describe, expect, it, vi } from "vitest";

const cutInputs: number[] = [];
vi.mock("../store/meta", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../store/meta")>();
  return {
    ...actual,
    cutTitle: (title: string, max: number) => {
      cutInputs.push(title.length);
      return actual.cutTitle(title, max);
    },
  };
});

const { titleOfText } = await import("./raw-text");

describe("titleOfText on a first line of megabytes", () => {
  it("cuts the same title from the line's start alone", () => {
    const line = `  Start of 🌍 the log ${"x".repeat(4_000_000)}`;
    expect(titleOfText(`${line}\nsecond`)).toBe(
      `Start of 🌍 the log ${"x".repeat(79 - "Start of 🌍 the log ".length)}…`,
    );
    expect(Math.max(...cutInputs)).toBeLessThanOrEqual(81);
  });
});
