/**
 * A raw import's title is cut from the start of the text's first line only: cutting reads
 * graphemes, and a log without line ends is one line of megabytes (0.5 s per 4 MiB of the
 * server's one event loop). It is redacted before it is cut: a key cut first is not the key.
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
  it("cuts the title from the line's start alone", () => {
    const line = `  Start of 🌍 the log ${"x ".repeat(2_000_000)}`;
    expect(titleOfText(`${line}\nsecond`)).toBe(
      `Start of 🌍 the log ${"x ".repeat(40).slice(0, 79 - "Start of 🌍 the log ".length)}…`,
    );
    expect(Math.max(...cutInputs)).toBeLessThanOrEqual(4096);
  });

  it("redacts before it cuts, and leaves out a word the limit cuts in two", () => {
    const token = `customauth${"qwertyuiopasdfghjklzxcvbnm".repeat(4)}`;
    const redact = (text: string) => text.replaceAll(token, "[redacted]");
    expect(titleOfText(`${token} failed`, redact)).toBe("[redacted] failed");
    // White space collapses in a title, so a word cut at the limit would show.
    expect(titleOfText(`ab${" ".repeat(4000)}${"k".repeat(200)}`)).toBe("ab");
  });
});
