import { actionGrammar } from "./action";
import { DelimiterParser } from "./delimiter";
import type { ParserOptions } from "./emitter";
import { assertNever, type Dialect } from "./events";
import type { Parser } from "./scanner";
import { TagParser } from "./tag-parser";
import { XML_GRAMMAR } from "./xml";

/** One parser per model turn: feed it the turn's text in any chunks, then `end()`. */
export function createParser(dialect: Dialect, options: ParserOptions = {}): Parser {
  switch (dialect) {
    case "xml":
      return new TagParser(XML_GRAMMAR, options);
    case "action":
      return new TagParser(actionGrammar(), options);
    case "delimiter":
      return new DelimiterParser(options);
    default:
      return assertNever(dialect, "dialect");
  }
}

/** Parses a whole text at once: `feed(text)` then `end()`. */
export function parseAll(dialect: Dialect, text: string, options: ParserOptions = {}) {
  const parser = createParser(dialect, options);
  return [...parser.feed(text), ...parser.end()];
}
