import { actionGrammar } from "./action";
import { BUILTIN_DEFINITIONS, type DialectDefinition } from "./definition";
import { DelimiterParser } from "./delimiter";
import type { ParserOptions } from "./emitter";
import { assertNever, type Dialect } from "./events";
import { hermesGrammar } from "./hermes";
import type { Parser } from "./scanner";
import { TagParser } from "./tag-parser";
import { tagsGrammar, XML_GRAMMAR } from "./xml";

/** A built-in dialect's name or a dialect definition (docs/dialects/custom.md). */
export type DialectSpec = Dialect | DialectDefinition;

/**
 * One parser per model turn: feed it the turn's text in any chunks, then `end()`. A
 * definition must be valid (`parseDefinition`) — an unchecked one can make markers ambiguous.
 */
export function createParser(dialect: DialectSpec, options: ParserOptions = {}): Parser {
  if (typeof dialect !== "string") return definitionParser(dialect, options);
  switch (dialect) {
    case "xml":
      return new TagParser(XML_GRAMMAR, options);
    case "action":
      return new TagParser(actionGrammar(), options);
    case "delimiter":
    case "hermes":
      return definitionParser(BUILTIN_DEFINITIONS[dialect], options);
    default:
      return assertNever(dialect, "dialect");
  }
}

function definitionParser(definition: DialectDefinition, options: ParserOptions): Parser {
  switch (definition.family) {
    case "tags":
      return new TagParser(tagsGrammar(definition), options);
    case "delimiter":
      return new DelimiterParser(definition, options);
    case "hermes":
      return new TagParser(hermesGrammar(definition), options);
    default:
      return assertNever(definition, "dialect family");
  }
}

/** Parses a whole text at once: `feed(text)` then `end()`. */
export function parseAll(dialect: DialectSpec, text: string, options: ParserOptions = {}) {
  const parser = createParser(dialect, options);
  return [...parser.feed(text), ...parser.end()];
}
