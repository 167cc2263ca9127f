/**
 * `$name` references of the action dialect (docs/dialects/action.md): pure substitution over parameters and
 * `<response>` text. No I/O; the scheduler decides *when* (at an action's start).
 */
import type { ActionType } from "../protocol/events";
import { isPlainObject } from "../protocol/safe-json";
import { outputValue } from "../tools/output-value";

/** A reference syntax: `pattern` (global) finds references, its group 1 is the lookup name. */
export interface ReferenceSyntax {
  pattern: RegExp;
  /** The same pattern anchored at both ends: a string that is one reference and nothing else. */
  exact: RegExp;
}

export function referenceSyntax(source: string): ReferenceSyntax {
  return { pattern: new RegExp(source, "g"), exact: new RegExp(`^(?:${source})$`) };
}

/** `$web_data`: the names `output_key` accepts (letters, digits, `_`, not starting with a digit). */
export const VARIABLE_SYNTAX = referenceSyntax("\\$([A-Za-z_][A-Za-z0-9_]*)");

export interface Substitution<T> {
  value: T;
  /** Referenced names with no value, each once, in order of appearance; left literal. */
  unknown: string[];
}

/**
 * Replaces references inside `value`, walking arrays and plain objects (values, not keys).
 * A string that is exactly one reference becomes the value itself (any JSON type); a reference
 * inside a longer string becomes its text form. Unknown references stay as written.
 */
export function substitute(
  value: unknown,
  variables: ReadonlyMap<string, unknown>,
  syntax: ReferenceSyntax = VARIABLE_SYNTAX,
): Substitution<unknown> {
  const unknown = new Set<string>();
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return replaceInString(node, variables, syntax, unknown);
    if (Array.isArray(node)) return node.map(walk);
    if (isPlainObject(node)) {
      const copy: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(node)) copy[key] = walk(child);
      return copy;
    }
    return node;
  };
  const result = walk(value);
  return { value: result, unknown: [...unknown] };
}

/** `<response>` text: every reference becomes its text form; unknown ones stay literal. */
export function resolveText(
  text: string,
  variables: ReadonlyMap<string, unknown>,
): { text: string; unknown: string[] } {
  const unknown = new Set<string>();
  const resolved = replaceEmbedded(text, variables, VARIABLE_SYNTAX, unknown);
  return { text: resolved, unknown: [...unknown] };
}

/** Every name `value` references (strings inside arrays and objects too), each once. */
export function references(value: unknown, syntax: ReferenceSyntax = VARIABLE_SYNTAX): string[] {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node === "string") {
      for (const match of node.matchAll(syntax.pattern)) {
        if (match[1] !== undefined) names.add(match[1]);
      }
    } else if (Array.isArray(node)) node.forEach(walk);
    else if (isPlainObject(node)) Object.values(node).forEach(walk);
  };
  walk(value);
  return [...names];
}

/**
 * How a value reads inside text: strings as they are, numbers and booleans as written, a list
 * of those joined with ", " (`$files` → "a.md, notes/"), anything else as JSON.
 */
export function textForm(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every(isScalar)) return value.map(textForm).join(", ");
  return JSON.stringify(value) ?? String(value);
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

/**
 * What a successful action stores under its `output_key`: a tool's output value (calculate →
 * the number, list → the names, …), a workflow's last step's value, other types' content.
 * The runtime, the timeline and the Markdown export all go through here.
 */
export function variableValue(
  type: ActionType | undefined,
  tool: string,
  content: unknown,
): unknown {
  if (type === undefined || type === "tool") return outputValue(tool, content);
  if (type === "workflow" && isPlainObject(content) && Array.isArray(content.steps)) {
    const last = content.steps.at(-1);
    if (isPlainObject(last) && typeof last.tool === "string")
      return outputValue(last.tool, last.content);
  }
  return content;
}

function replaceInString(
  text: string,
  variables: ReadonlyMap<string, unknown>,
  syntax: ReferenceSyntax,
  unknown: Set<string>,
): unknown {
  const exact = syntax.exact.exec(text);
  const name = exact?.[1];
  if (name !== undefined) {
    if (variables.has(name)) return variables.get(name);
    unknown.add(name);
    return text;
  }
  return replaceEmbedded(text, variables, syntax, unknown);
}

function replaceEmbedded(
  text: string,
  variables: ReadonlyMap<string, unknown>,
  syntax: ReferenceSyntax,
  unknown: Set<string>,
): string {
  return text.replace(syntax.pattern, (whole: string, name: string) => {
    if (variables.has(name)) return textForm(variables.get(name));
    unknown.add(name);
    return whole;
  });
}
