"use client";

import { useEffect, useState } from "react";
import type { HighlighterCore } from "shiki/core";
import { loadWireHighlighter } from "./wire-highlighter";

let loaded: HighlighterCore | null = null;

/** The wire highlighter once it has loaded; null until then (callers show plain text). */
export function useWireHighlighter(): HighlighterCore | null {
  const [highlighter, setHighlighter] = useState<HighlighterCore | null>(loaded);
  useEffect(() => {
    if (highlighter !== null) return;
    let live = true;
    loadWireHighlighter().then(
      (value) => {
        loaded = value;
        if (live) setHighlighter(value);
      },
      (error: unknown) => console.error("The wire highlighter failed to load.", error),
    );
    return () => {
      live = false;
    };
  }, [highlighter]);
  return highlighter;
}
