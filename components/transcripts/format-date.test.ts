import { describe, expect, it } from "vitest";
import { formatSavedAt } from "./format-date";

const now = Date.UTC(2026, 2, 10, 12, 0, 0);

describe("formatSavedAt", () => {
  it("says how long ago within a day", () => {
    expect(formatSavedAt(now - 5_000, now)).toBe("just now");
    expect(formatSavedAt(now - 5 * 60_000, now)).toBe("5 min ago");
    expect(formatSavedAt(now - 3 * 3_600_000 - 1, now)).toBe("3 h ago");
  });

  it("gives the date after a day, with the year only for another year", () => {
    expect(formatSavedAt(Date.UTC(2026, 2, 4, 12), now, "en-US")).toBe("Mar 4");
    expect(formatSavedAt(Date.UTC(2025, 11, 24, 12), now, "en-US")).toBe("Dec 24, 2025");
  });
});
