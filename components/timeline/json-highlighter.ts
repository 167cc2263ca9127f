import { createHighlighterCoreSync, type HighlighterCore, type ThemedToken } from "shiki/core";
import { createJavaScriptRegexEngine } from "shiki/engine/javascript";
import json from "shiki/langs/json.mjs";
import githubDark from "shiki/themes/github-dark-default.mjs";
import githubLight from "shiki/themes/github-light-default.mjs";

/**
 * JSON highlighting for the cards: shiki's core with the JavaScript regex engine, one grammar
 * and two themes, so nothing loads WASM and the bundle stays small. Created on first use and
 * synchronous, so a card has its colours on its first paint (no flash, no height change).
 * Each token carries both themes' colours as `--shiki-dark` / `--shiki-light`; CSS picks one.
 */
let highlighter: HighlighterCore | null = null;

function get(): HighlighterCore {
  highlighter ??= createHighlighterCoreSync({
    themes: [githubDark, githubLight],
    langs: [json],
    engine: createJavaScriptRegexEngine(),
  });
  return highlighter;
}

/** Past this size, plain text: highlighting megabytes would block the main thread. */
export const MAX_HIGHLIGHT_CHARS = 20_000;

const cache = new Map<string, ThemedToken[][]>();
const CACHE_SIZE = 200;

/** Lines of tokens for `code`, cached (cards re-render while a run streams). */
export function highlightJson(code: string): ThemedToken[][] {
  const hit = cache.get(code);
  if (hit !== undefined) return hit;
  const lines = get().codeToTokens(code, {
    lang: "json",
    themes: { dark: "github-dark-default", light: "github-light-default" },
    defaultColor: false,
  }).tokens;
  if (cache.size >= CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(code, lines);
  return lines;
}
