import type { GrammarState, HighlighterCore, ThemedToken } from "shiki/core";
import type { WireLang } from "./wire-highlighter";

/** A coloured stretch of text: UTF-16 offsets into the whole text, as spans use. */
export interface Run {
  start: number;
  end: number;
  color: string;
  /** shiki's FontStyle bits: 1 italic, 2 bold, 4 underline. */
  fontStyle: number;
}

/** Lines longer than this are left plain: tokenizing them costs more than colour is worth. */
export const MAX_LINE_LENGTH = 20_000;

/** One line's tokens as runs at absolute offsets, neighbours with the same style merged. */
export function tokensToRuns(tokens: readonly ThemedToken[], base: number): Run[] {
  const runs: Run[] = [];
  for (const token of tokens) {
    const start = base + token.offset;
    const end = start + token.content.length;
    const color = token.color ?? "";
    const fontStyle = token.fontStyle ?? 0;
    const last = runs[runs.length - 1];
    if (
      last !== undefined &&
      last.end === start &&
      last.color === color &&
      last.fontStyle === fontStyle
    )
      last.end = end;
    else runs.push({ start, end, color, fontStyle });
  }
  return runs;
}

export interface TokenizeOptions {
  lang: WireLang;
  grammarState?: GrammarState;
}

/** Tokenizes `text` (which starts at `base`) into runs per line ("\n"-separated). */
export function tokenizeLines(
  highlighter: HighlighterCore,
  text: string,
  base: number,
  options: TokenizeOptions,
): { lines: Run[][]; state: GrammarState | undefined } {
  const tokens = highlighter.codeToTokensBase(text, {
    lang: options.lang,
    theme: "wire",
    tokenizeMaxLineLength: MAX_LINE_LENGTH,
    ...(options.grammarState === undefined ? {} : { grammarState: options.grammarState }),
  });
  return {
    lines: tokens.map((line) => tokensToRuns(line, base)),
    state: highlighter.getLastGrammarState(tokens),
  };
}
