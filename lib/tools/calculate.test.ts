import { describe, expect, it } from "vitest";
import { calculateTool } from "./calculate";
import type { ToolContext } from "./tool";

// `calculate` touches no files; the workspace is never read.
const context = { signal: new AbortController().signal } as ToolContext;

describe("calculate", () => {
  it("returns the value and a readable outcome", async () => {
    expect(await calculateTool.run({ expression: "(3 + 4) * 2 ^ 3 / sqrt(16)" }, context)).toEqual({
      content: { expression: "(3 + 4) * 2 ^ 3 / sqrt(16)", value: 14 },
      outcome: "(3 + 4) * 2 ^ 3 / sqrt(16) = 14",
    });
  });

  it("hides binary floating-point noise", async () => {
    const output = await calculateTool.run({ expression: "0.1 + 0.2" }, context);
    expect(output.content).toEqual({ expression: "0.1 + 0.2", value: 0.3 });
  });

  it("fails with the position for bad syntax and division by zero", async () => {
    await expect(calculateTool.run({ expression: "12 / (3 - 3)" }, context)).rejects.toThrow(
      'Division by zero at position 4 in "12 / (3 - 3)".',
    );
    await expect(calculateTool.run({ expression: "2 * * 3" }, context)).rejects.toThrow(
      'Unexpected "*" at position 5 in "2 * * 3".',
    );
  });
});
