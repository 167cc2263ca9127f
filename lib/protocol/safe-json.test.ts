import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, tooDeep } from "./safe-json";

const nested = (depth: number): unknown => {
  let value: unknown = "leaf";
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
};

describe("tooDeep", () => {
  it("accepts values nested up to the limit and names the first level past it", () => {
    expect(tooDeep(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(tooDeep({ x: nested(MAX_JSON_DEPTH + 1) })).toMatch(/^x\.0\.a\.0\.a/);
    expect(tooDeep(nested(3), 2)).toBe("0.a");
    expect(tooDeep("text")).toBeUndefined();
  });

  it("walks 100,000 levels without overflowing the stack", () => {
    const deep = JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    expect(tooDeep(deep)?.split(".")).toHaveLength(MAX_JSON_DEPTH);
  });
});
