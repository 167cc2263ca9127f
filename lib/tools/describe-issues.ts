import type { z } from "zod";

/**
 * One message naming each bad field and what was expected, written for the model:
 * `"file" is missing (expected string); unexpected argument "cmd"`.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], args: unknown): string {
  return issues.map((issue) => describeIssue(issue, args)).join("; ");
}

function describeIssue(issue: z.core.$ZodIssue, args: unknown): string {
  const field = issue.path.length === 0 ? "the arguments" : `"${issue.path.join(".")}"`;
  switch (issue.code) {
    case "invalid_type": {
      const value = valueAt(args, issue.path);
      if (issue.path.length === 0) {
        return `the arguments must be a JSON ${issue.expected}, not ${kindOf(value)}`;
      }
      if (value === undefined) return `${field} is missing (expected ${issue.expected})`;
      const expected = issue.expected === "int" ? "integer" : issue.expected;
      return `${field} should be ${expected}, not ${kindOf(value)}`;
    }
    case "unrecognized_keys":
      return issue.keys.map((key) => `unexpected argument "${key}"`).join("; ");
    default:
      return `${field}: ${issue.message}`;
  }
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return `${typeof value} ${JSON.stringify(value)}`;
}
