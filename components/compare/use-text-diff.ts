"use client";

import { useEffect, useState } from "react";
import type { CompareRow } from "@/lib/compare";
import { diffText, type TextDiff } from "@/lib/compare";

/** Diffs already computed, per row (rows are made once per pair of transcripts). */
const cache = new WeakMap<CompareRow, TextDiff>();

/** Schedules work after the browser has painted and has a moment (a timeout where idle callbacks are missing). */
function whenIdle(work: () => void): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(work, { timeout: 200 });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(work, 0);
  return () => window.clearTimeout(handle);
}

/**
 * The character diff of a row's two raw texts, computed off the first paint: a row shows its
 * text at once and its marks as soon as the browser is idle. Each diff is bounded
 * (`lib/compare` `TEXT_BUDGET`), and only rows on screen ask for one (the list is virtualized).
 * `null` until computed, and for rows with one side only.
 */
export function useTextDiff(row: CompareRow): TextDiff | null {
  const [diff, setDiff] = useState<TextDiff | null>(() => cache.get(row) ?? null);
  useEffect(() => {
    const known = cache.get(row);
    if (known !== undefined) {
      setDiff(known);
      return;
    }
    setDiff(null);
    if (row.a === undefined || row.b === undefined) return;
    const a = row.a.raw;
    const b = row.b.raw;
    return whenIdle(() => {
      const computed = diffText(a, b);
      cache.set(row, computed);
      setDiff(computed);
    });
  }, [row]);
  return diff;
}
