import type { ToolCall } from "./events";
import { isPlainObject, MAX_JSON_DEPTH, tooDeep } from "./safe-json";

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
  const args = value[fields.args];
  if (!isPlainObject(args)) return `"${fields.args}" must be an object, got ${describeValue(args)}`;
  return depthProblem(fields.args, args);
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

/** Arguments are stored and shown: nesting past `MAX_JSON_DEPTH` is refused like a bad shape. */
export function depthProblem(field: string, value: unknown): string | null {
  const deep = tooDeep(value);
  if (deep === undefined) return null;
  return `"${[field, deep].filter(Boolean).join(".")}" nests deeper than ${MAX_JSON_DEPTH} levels`;
}
