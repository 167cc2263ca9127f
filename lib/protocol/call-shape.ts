import type { ToolCall } from "./events";
import { isPlainObject, MAX_JSON_DEPTH, tooDeep } from "./safe-json";

/**
 * Checks one `{"name": string, "args": object}` element (xml batches, delimiter calls).
 * Returns the problem in words, or null when the shape is right.
 */
export function callShapeProblem(value: unknown): string | null {
  if (!isPlainObject(value))
    return `expected an object {"name", "args"}, got ${describeValue(value)}`;
  if (typeof value.name !== "string" || value.name.trim() === "") {
    return `"name" must be a non-empty string, got ${describeValue(value.name)}`;
  }
  if (!isPlainObject(value.args))
    return `"args" must be an object, got ${describeValue(value.args)}`;
  return depthProblem("args", value.args);
}

export function toToolCall(id: string, value: Record<string, unknown>): ToolCall {
  return { id, name: value.name as string, args: value.args as Record<string, unknown> };
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
