import type { ToolCall } from "./events";
import { isPlainObject } from "./safe-json";

/** The JSON field names of a call (`name`/`args` unless a dialect renames them). */
export interface FieldNames {
  name: string;
  args: string;
}

export const DEFAULT_FIELDS: FieldNames = { name: "name", args: "args" };

/**
 * Checks one `{"name": string, "args": object}` element (xml batches, delimiter calls),
 * under the dialect's field names. Returns the problem in words, or null when it is right.
 */
export function callShapeProblem(value: unknown, fields = DEFAULT_FIELDS): string | null {
  if (!isPlainObject(value))
    return `expected an object {"${fields.name}", "${fields.args}"}, got ${describeValue(value)}`;
  const name = value[fields.name];
  if (typeof name !== "string" || name.trim() === "") {
    return `"${fields.name}" must be a non-empty string, got ${describeValue(name)}`;
  }
  if (!isPlainObject(value[fields.args]))
    return `"${fields.args}" must be an object, got ${describeValue(value[fields.args])}`;
  return null;
}

export function toToolCall(
  id: string,
  value: Record<string, unknown>,
  fields = DEFAULT_FIELDS,
): ToolCall {
  return {
    id,
    name: value[fields.name] as string,
    args: value[fields.args] as Record<string, unknown>,
  };
}

export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)}`;
}
