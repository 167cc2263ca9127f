"use client";

import { useEffect, useReducer, useRef } from "react";
import { IncrementalTokens } from "./incremental-tokens";
import { useWireHighlighter } from "./use-wire-highlighter";

/** How often a growing text is re-tokenized at most; the part not yet tokenized shows plain. */
export const RETOKENIZE_MS = 120;

/**
 * Tokens for a text that grows while it streams (one turn's raw text). Tokenizing is
 * throttled and incremental, so highlighting never holds the stream back: between passes the
 * new tail renders as plain text. A text not `enabled` (a turn far off screen) waits.
 */
export function useWireTokens(text: string, enabled = true): IncrementalTokens | null {
  const highlighter = useWireHighlighter();
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  const latest = useRef(text);
  latest.current = text;
  const state = useRef<{
    tokens: IncrementalTokens | null;
    timer: ReturnType<typeof setTimeout> | null;
    last: number;
  }>({ tokens: null, timer: null, last: Number.NEGATIVE_INFINITY });

  useEffect(() => {
    const current = state.current;
    if (highlighter === null || !enabled) return;
    // A shorter text is a new one (a replay restarting the turn): start over.
    if (current.tokens === null || text.length < current.tokens.covered)
      current.tokens = new IncrementalTokens(highlighter);
    if (current.timer !== null || current.tokens.covered === text.length) return;
    const wait = Math.max(0, current.last + RETOKENIZE_MS - performance.now());
    current.timer = setTimeout(() => {
      current.timer = null;
      current.last = performance.now();
      if (current.tokens !== null && latest.current.length < current.tokens.covered)
        current.tokens = new IncrementalTokens(highlighter);
      current.tokens?.update(latest.current);
      rerender();
    }, wait);
  }, [highlighter, text, enabled]);

  useEffect(() => {
    const current = state.current;
    return () => {
      if (current.timer !== null) clearTimeout(current.timer);
      current.timer = null;
    };
  }, []);

  // Tokens of a longer, older text (before a restart) do not describe this one.
  const tokens = state.current.tokens;
  return tokens !== null && tokens.covered <= text.length ? tokens : null;
}
