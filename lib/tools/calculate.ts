import { z } from "zod";
import { evaluate } from "./arithmetic";
import { defineTool, ToolFailure } from "./tool";

export const calculateTool = defineTool({
  name: "calculate",
  description:
    "Evaluate an arithmetic expression exactly as written: + - * / % ^ (power), parentheses, " +
    "decimals, sqrt abs round floor ceil min max, and the constants pi and e.",
  input: z.strictObject({
    expression: z.string().min(1).max(1000).describe('For example "(3 + 4) * 2 ^ 3 / sqrt(16)".'),
  }),
  async run({ expression }) {
    const result = evaluate(expression);
    if (!result.ok) throw new ToolFailure(`${result.message} in ${JSON.stringify(expression)}.`);
    // 15 significant digits hides binary noise (0.1 + 0.2 gives 0.3) without losing real digits.
    const value = Number(result.value.toPrecision(15));
    return { content: { expression, value }, outcome: `${expression.trim()} = ${value}` };
  },
});
