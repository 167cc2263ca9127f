/**
 * `$name` references of the action dialect (spec §4.3): pure substitution over parameters and
 * `<response>` text. No I/O; the scheduler decides *when* (at an action's start).
 */
import { isPlainObject } from "../protocol/safe-json";

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

/** How a value reads inside text: strings as they are, anything else as JSON. */
export function textForm(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value) ?? String(value);
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
