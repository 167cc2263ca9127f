import { describe, expect, it } from "vitest";
import { normalizeTitle } from "./meta";

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
