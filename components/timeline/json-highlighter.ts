import type { HighlighterCore, ThemedToken } from "shiki/core";

/**
 * JSON highlighting for the cards: shiki's core with the JavaScript regex engine, one grammar
 * and two themes, so nothing loads WASM. Loaded on first use (`loadJsonHighlighter`), not with
 * the page: evaluating shiki and its regex engine was part of the app's longest load task, and
 * a card shows its JSON plain until the colours come (the text and its height do not change).
 * Once loaded it is synchronous. Each token carries both themes' colours as `--shiki-dark` /
 * `--shiki-light`; CSS picks one.
 */
let highlighter: HighlighterCore | null = null;
const THEMES = { dark: "github-dark-default", light: "github-light-default" };
/** Every kind of JSON token once, so each of the grammar's patterns is compiled. */
const WARM_UP = '{"a": [1, -2.5e3, true, false, null, "s\\n"], "b": {}}';
let loading: Promise<boolean> | null = null;
const listeners = new Set<() => void>();

/** Starts loading the highlighter (once); resolves to whether it loaded. */
export function loadJsonHighlighter(): Promise<boolean> {
  loading ??= Promise.all([
    import("shiki/core"),
    import("shiki/engine/javascript"),
    import("shiki/langs/json.mjs"),
    import("shiki/themes/github-dark-default.mjs"),
    import("shiki/themes/github-light-default.mjs"),
  ]).then(
    async ([core, engine, json, dark, light]) => {
      // The modules were evaluated in this task: build the highlighter in the next one.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const built = core.createHighlighterCoreSync({
        themes: [dark.default, light.default],
        langs: [json.default],
        engine: engine.createJavaScriptRegexEngine(),
      });
      // The grammar's patterns compile on first use (~20 ms): in a task of their own too, not
      // in the render that colours the first cards.
      await new Promise((resolve) => setTimeout(resolve, 0));
      built.codeToTokens(WARM_UP, { lang: "json", themes: THEMES, defaultColor: false });
      await new Promise((resolve) => setTimeout(resolve, 0));
      highlighter = built;
      for (const listener of listeners) listener();
      return true;
    },
    // A chunk that failed to load (offline, a new deploy): the JSON stays plain, and the next
    // card that wants colours tries again.
    () => {
      loading = null;
      return false;
    },
  );
  return loading;
}

/** True once `highlightJson` can run. */
export function jsonHighlighterLoaded(): boolean {
  return highlighter !== null;
}

/** Calls `listener` when the highlighter has loaded; returns the unsubscribe. */
export function onJsonHighlighterLoaded(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Past this size, plain text: highlighting megabytes would block the main thread. */
export const MAX_HIGHLIGHT_CHARS = 20_000;

const cache = new Map<string, ThemedToken[][]>();
const CACHE_SIZE = 200;

/** Lines of tokens for `code`, cached (cards re-render while a run streams). Only once loaded. */
export function highlightJson(code: string): ThemedToken[][] {
  if (highlighter === null)
    throw new Error("highlightJson before the highlighter loaded: check jsonHighlighterLoaded()");
  const hit = cache.get(code);
  if (hit !== undefined) return hit;
  const lines = highlighter.codeToTokens(code, {
    lang: "json",
    themes: THEMES,
    defaultColor: false,
  }).tokens;
  if (cache.size >= CACHE_SIZE) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  cache.set(code, lines);
  return lines;
}
