/**
 * Dialects as data (spec §4.5): a family plus its markers and the JSON field names of a
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
