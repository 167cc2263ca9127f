import type { LanguageRegistration } from "shiki/core";

/**
 * A TextMate grammar for the wire markers of the built-in dialects (docs/dialects): `xml`
 * (`<think>`, `<execute>`, `<respond>`, `<end>`, `<results>`), `delimiter` (`§think:`,
 * `§call:`, `§execute`, `§respond:`, `§end`, `[SYSTEM: …]`), `action` (`<thought>`,
 * `<action …>`, `<response>`) and `hermes` (`<tool_call>`, `<tool_response>`). Call bodies embed JSON, so a marker inside a JSON string stays
 * string content, as it does for the parsers. It only colours text: what the text *means*
 * comes from the parser's events and their spans, never from this grammar.
 */

type Rule = LanguageRegistration["patterns"][number];

const TAG = "entity.name.tag.wire";
const SYSTEM_TAG = "entity.name.tag.system.wire";
const PUNCTUATION = "punctuation.definition.tag.wire";
const THINK = "comment.block.think.wire";
const RESPOND = "markup.other.respond.wire";
const JSON_BODY: Rule[] = [{ include: "source.json" }];
/** Where a delimiter marker's content stops: at the next marker or a system results message. */
const NEXT_MARKER = "(?=§(?:think:|call:|execute|respond:|end)|\\[SYSTEM:)";

function tagBlock(name: string, contentName: string | undefined, body: Rule[], tag = TAG): Rule {
  const captures = { 1: { name: PUNCTUATION }, 2: { name: tag }, 3: { name: PUNCTUATION } };
  return {
    begin: `(<)(${name})(>)`,
    beginCaptures: captures,
    end: `(</)(${name})(>)`,
    endCaptures: captures,
    name: `meta.block.${name}.wire`,
    ...(contentName === undefined ? {} : { contentName }),
    patterns: body,
  };
}

function marker(name: string, contentName: string | undefined, body: Rule[]): Rule {
  return {
    begin: `(§${name}:)`,
    beginCaptures: { 1: { name: "keyword.control.marker.wire" } },
    end: NEXT_MARKER,
    name: `meta.marker.${name}.wire`,
    ...(contentName === undefined ? {} : { contentName }),
    patterns: body,
  };
}

export const WIRE_GRAMMAR: LanguageRegistration = {
  name: "wire",
  scopeName: "source.wire",
  displayName: "Wire text",
  embeddedLangs: ["json"],
  patterns: [
    { include: "#think" },
    { include: "#thought" },
    { include: "#execute" },
    { include: "#action" },
    { include: "#respond" },
    { include: "#response" },
    { include: "#results" },
    { include: "#tool_call" },
    { include: "#tool_response" },
    { include: "#end" },
    { include: "#system" },
    { include: "#d-think" },
    { include: "#d-call" },
    { include: "#d-respond" },
    { include: "#d-keyword" },
  ],
  repository: {
    think: tagBlock("think", THINK, []),
    thought: tagBlock("thought", THINK, []),
    execute: tagBlock("execute", "meta.embedded.block.json", JSON_BODY),
    respond: tagBlock("respond", RESPOND, []),
    response: tagBlock("response", RESPOND, []),
    results: tagBlock("results", "meta.embedded.block.json", JSON_BODY, SYSTEM_TAG),
    tool_call: tagBlock("tool_call", "meta.embedded.block.json", JSON_BODY),
    tool_response: tagBlock("tool_response", "meta.embedded.block.json", JSON_BODY, SYSTEM_TAG),
    end: {
      match: "(<)(end)(>)",
      captures: { 1: { name: PUNCTUATION }, 2: { name: TAG }, 3: { name: PUNCTUATION } },
    },
    action: {
      begin: "(<)(action)\\b([^>]*)(>)",
      beginCaptures: {
        1: { name: PUNCTUATION },
        2: { name: TAG },
        3: { patterns: [{ include: "#attribute" }] },
        4: { name: PUNCTUATION },
      },
      end: "(</)(action)(>)",
      endCaptures: { 1: { name: PUNCTUATION }, 2: { name: TAG }, 3: { name: PUNCTUATION } },
      name: "meta.block.action.wire",
      contentName: "meta.embedded.block.json",
      patterns: JSON_BODY,
    },
    attribute: {
      match: "([\\w-]+)(\\s*=\\s*)(\"[^\"]*\"|'[^']*')",
      captures: {
        1: { name: "entity.other.attribute-name.wire" },
        2: { name: PUNCTUATION },
        3: { name: "string.quoted.attribute.wire" },
      },
    },
    system: {
      begin: "(\\[)(SYSTEM:)",
      beginCaptures: { 1: { name: PUNCTUATION }, 2: { name: SYSTEM_TAG } },
      end: "(\\])",
      endCaptures: { 1: { name: PUNCTUATION } },
      name: "meta.block.system.wire",
      patterns: JSON_BODY,
    },
    "d-think": marker("think", THINK, []),
    "d-call": marker("call", "meta.embedded.block.json", JSON_BODY),
    "d-respond": marker("respond", RESPOND, []),
    "d-keyword": { match: "§(?:execute|end)", name: "keyword.control.marker.wire" },
  },
};
