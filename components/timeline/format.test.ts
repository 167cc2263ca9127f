import { describe, expect, it } from "vitest";
import { contentText, formatDuration, tokensPerSecond } from "./format";

describe("format", () => {
  it("durations", () => {
    expect(formatDuration(0)).toBe("0 ms");
    expect(formatDuration(999.4)).toBe("999 ms");
    expect(formatDuration(1234)).toBe("1.23 s");
    expect(formatDuration(12_345)).toBe("12.3 s");
    expect(formatDuration(125_000)).toBe("2 min 5 s");
  });

  it("tokens per second leave out the time to the first token", () => {
    expect(tokensPerSecond({ input: 10, output: 100, durationMs: 1100, ttftMs: 100 })).toBe(100);
    expect(tokensPerSecond({ input: 10, output: 100, durationMs: 100, ttftMs: 100 })).toBeNull();
    expect(tokensPerSecond({ input: 10, output: 0, durationMs: 500, ttftMs: 100 })).toBeNull();
  });

  it("content as text", () => {
    expect(contentText("plain")).toBe("plain");
    expect(contentText({ a: 1 })).toBe('{\n  "a": 1\n}');
    expect(contentText(undefined)).toBe("");
  });
});
