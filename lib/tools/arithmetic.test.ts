import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { evaluate } from "./arithmetic";

describe("evaluate", () => {
  it.each([
    ["1 + 2 * 3", 7],
    ["(1 + 2) * 3", 9],
    ["10 - 4 - 3", 3],
    ["100 / 10 / 5", 2],
    ["7 % 4", 3],
    ["2 ^ 10", 1024],
    ["2 ^ 3 ^ 2", 512],
    ["(2 ^ 3) ^ 2", 64],
    ["-2 ^ 2", -4],
    ["(-2) ^ 2", 4],
    ["2 ^ -1", 0.5],
    ["2 * -3", -6],
    ["--3", 3],
    ["+4", 4],
    ["3 * 2 ^ 2", 12],
    [".5 + 1.25", 1.75],
    ["1.5e3", 1500],
    ["sqrt(16) + abs(-3)", 7],
    ["round(2.5) + floor(2.7) + ceil(2.1)", 8],
    ["min(3, 1, 2) * max(4, 9)", 9],
    ["max(2)", 2],
    ["PI", Math.PI],
    ["2 * pi", 2 * Math.PI],
    ["e ^ 1", Math.E],
    ["  ( 1 +\t2 )  ", 3],
  ])("%s = %d", (expression, value) => {
    expect(evaluate(expression)).toEqual({ ok: true, value });
  });

  it.each([
    ["1 / 0", "Division by zero at position 3", 2],
    ["5 % (2 - 2)", "Division by zero at position 3", 2],
    ["2 +", "Expression ends early; expected a number at position 4", 3],
    ["2 * (3 + 4", 'Missing ")" for "(" at position 5', 10],
    ["2 $ 3", 'Unexpected "$" at position 3', 2],
    ["(1 + 2))", 'Unexpected ")" at position 8', 7],
    ["2e", 'Unexpected "e" at position 2', 1],
    [
      "foo + 1",
      'Unknown name "foo" at position 1; known: pi, e, sqrt, abs, round, floor, ceil, min, max',
      0,
    ],
    [
      "log(10)",
      'Unknown function "log" at position 1; known: sqrt, abs, round, floor, ceil, min, max',
      0,
    ],
    ["sqrt(1, 2)", "sqrt() takes 1 argument, got 2 (at position 1)", 0],
    ["sqrt(-4)", "sqrt() of a negative number at position 1", 0],
    ["(-8) ^ 0.5", "(-8) ^ 0.5 is not a real number (at position 6)", 5],
    ["10 ^ 400", "The result is too large to represent", 0],
    ["", "Expression ends early; expected a number at position 1", 0],
  ])("%j fails: %s", (expression, message, offset) => {
    expect(evaluate(expression)).toEqual({ ok: false, message, offset });
  });

  it("refuses pathological nesting instead of overflowing the stack", () => {
    const result = evaluate(`${"(".repeat(10_000)}1${")".repeat(10_000)}`);
    expect(result).toMatchObject({
      ok: false,
      message: expect.stringMatching(/nested too deeply/),
    });
    expect(evaluate(`${"(".repeat(50)}1${")".repeat(50)}`)).toEqual({ ok: true, value: 1 });
  });

  // Under `npm run mutation` the file is Stryker's instrumented copy, which has its own `Function(`.
  it.skipIf(Boolean(process.env.STRYKER_MUTATOR_WORKER))(
    "uses neither eval nor Function",
    async () => {
      const source = await readFile(new URL("./arithmetic.ts", import.meta.url), "utf8");
      expect(source).not.toMatch(/\beval\s*\(|\bFunction\s*\(/);
    },
  );
});
