import type { Dialect } from "./events";

/**
 * Dialects as data (docs/dialects/custom.md): a family plus its markers and the JSON field names of a
 * call. The built-ins `xml`, `delimiter` and `hermes` are definitions too; `action` stays
 * its own grammar. Validation of untrusted definitions lives in `definition-schema.ts`.
 */

/** JSON field names of a call; default `name` and `args` (`arguments` for hermes). */
export type CallFields = { name?: string; args?: string };

export interface TagsDefinition {
  name: string;
  family: "tags";
  think: [string, string];
  batch: [string, string];
  respond?: [string, string];
  end?: string;
  results: [string, string];
  fields?: CallFields;
}

export interface DelimiterDefinition {
  name: string;
  family: "delimiter";
  think: string;
  call: string;
  execute: string;
  respond: string;
  end: string;
  results: string;
  fields?: CallFields;
}

export interface HermesDefinition {
  name: string;
  family: "hermes";
  think: [string, string];
  call: [string, string];
  results: [string, string];
  fields?: CallFields;
}

export type DialectDefinition = TagsDefinition | DelimiterDefinition | HermesDefinition;
export type DialectFamily = DialectDefinition["family"];
export const FAMILIES: readonly DialectFamily[] = ["tags", "delimiter", "hermes"];

export const XML_DEFINITION: TagsDefinition = {
  name: "xml",
  family: "tags",
  think: ["<think>", "</think>"],
  batch: ["<execute>", "</execute>"],
  respond: ["<respond>", "</respond>"],
  end: "<end>",
  results: ["<results>", "</results>"],
};

export const DELIMITER_DEFINITION: DelimiterDefinition = {
  name: "delimiter",
  family: "delimiter",
  think: "§think:",
  call: "§call:",
  execute: "§execute",
  respond: "§respond:",
  end: "§end",
  results: "[SYSTEM:",
};

export const HERMES_DEFINITION: HermesDefinition = {
  name: "hermes",
  family: "hermes",
  think: ["<think>", "</think>"],
  call: ["<tool_call>", "</tool_call>"],
  results: ["<tool_response>", "</tool_response>"],
};

/** The built-in dialects that are definitions, by name. */
export const BUILTIN_DEFINITIONS = {
  xml: XML_DEFINITION,
  delimiter: DELIMITER_DEFINITION,
  hermes: HERMES_DEFINITION,
} as const;

/** The call field names in effect for a definition. */
export function callFields(definition: DialectDefinition): { name: string; args: string } {
  const args = definition.family === "hermes" ? "arguments" : "args";
  return { name: definition.fields?.name ?? "name", args: definition.fields?.args ?? args };
}

/** Every marker of a definition, with the role it plays (for validation and highlighting). */
export function definitionMarkers(definition: DialectDefinition): { path: string; text: string }[] {
  const pair = (path: string, value: [string, string] | undefined) =>
    value === undefined
      ? []
      : [
          { path: `${path}.0`, text: value[0] },
          { path: `${path}.1`, text: value[1] },
        ];
  switch (definition.family) {
    case "tags":
      return [
        ...pair("think", definition.think),
        ...pair("batch", definition.batch),
        ...pair("respond", definition.respond),
        ...(definition.end === undefined ? [] : [{ path: "end", text: definition.end }]),
        ...pair("results", definition.results),
      ];
    case "delimiter":
      return (["think", "call", "execute", "respond", "end", "results"] as const).map((key) => ({
        path: key,
        text: definition[key],
      }));
    case "hermes":
      return [
        ...pair("think", definition.think),
        ...pair("call", definition.call),
        ...pair("results", definition.results),
      ];
  }
}

/** The built-in dialect whose execution model a definition shares (`tags` runs like `xml`). */
export function baseDialect(dialect: Dialect | DialectDefinition): Dialect {
  if (typeof dialect === "string") return dialect;
  switch (dialect.family) {
    case "tags":
      return "xml";
    case "delimiter":
      return "delimiter";
    case "hermes":
      return "hermes";
  }
}

/** What a transcript was recorded in: its definition when it has one, else its dialect. */
export function dialectOf(meta: {
  dialect: Dialect;
  definition?: DialectDefinition;
}): Dialect | DialectDefinition {
  return meta.definition ?? meta.dialect;
}

/** A name to show: the built-in's, or the definition's with its family. */
export function dialectLabel(dialect: Dialect | DialectDefinition): string {
  return typeof dialect === "string" ? dialect : `${dialect.name} (${dialect.family})`;
}

/** Whether two dialects are the same (definitions compare by content, not by name). */
export function sameDialect(
  a: Dialect | DialectDefinition,
  b: Dialect | DialectDefinition,
): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return canonical(a) === canonical(b);
}

/** JSON with object keys sorted, so key order does not matter. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
