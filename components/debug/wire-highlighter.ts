import type { HighlighterCore } from "shiki/core";
import { WIRE_GRAMMAR } from "./wire-grammar";
import { WIRE_THEME } from "./wire-theme";

export type WireLang = "wire" | "json";

let loading: Promise<HighlighterCore> | undefined;

/**
 * The one shiki highlighter of the debug panel, loaded on first use: `shiki/core` with the
 * JavaScript regex engine (no WASM), only the JSON grammar and the wire grammar, one theme.
 * The imports are dynamic so the page's first load does not wait for them.
 */
export function loadWireHighlighter(): Promise<HighlighterCore> {
  loading ??= (async () => {
    const [{ createHighlighterCore }, { createJavaScriptRegexEngine }, json] = await Promise.all([
      import("shiki/core"),
      import("shiki/engine/javascript"),
      import("shiki/langs/json.mjs"),
    ]);
    return createHighlighterCore({
      themes: [WIRE_THEME],
      langs: [json.default, WIRE_GRAMMAR],
      engine: createJavaScriptRegexEngine({ forgiving: true }),
    });
  })();
  return loading;
}
