import { describe, expect, it } from "vitest";
import { CLOCK_SKEW_WARN_MS, clockSkewWarning } from "./postgres-clock";

describe("clockSkewWarning", () => {
  it("says nothing within a third of the default lease, and which way past it", () => {
    expect(clockSkewWarning(CLOCK_SKEW_WARN_MS, "db")).toBeUndefined();
    expect(clockSkewWarning(-CLOCK_SKEW_WARN_MS, "db")).toBeUndefined();
    expect(clockSkewWarning(12_345, "db")).toContain("12.3 s ahead of the database's (db)");
    expect(clockSkewWarning(-7_000, "db")).toContain("7.0 s behind the database's (db)");
  });
});
