"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { alignTranscripts, exchangesOf } from "@/lib/compare";
import { summarizeRecords } from "@/lib/metrics";
import { CompareRowView } from "./compare-row";
import type { LoadedTranscript } from "./load";
import { SummaryTable } from "./summary-table";
import { useComparePrices } from "./use-compare-prices";

/**
 * Two transcripts side by side: the summary of each, then their turns aligned row by row
 * (virtualized: only rows on screen are drawn and diffed), with next/previous difference on
 * `n`/`p` (or `j`/`k`) and buttons.
 */
export function CompareView({ a, b }: { a: LoadedTranscript; b: LoadedTranscript }) {
  const rows = useMemo(
    () => alignTranscripts(exchangesOf(a.records), exchangesOf(b.records)),
    [a, b],
  );
  const prices = useComparePrices();
  const summaries = useMemo(
    () => ({
      a: summarizeRecords(a.records, { prices, model: a.meta.model }),
      b: summarizeRecords(b.records, { prices, model: b.meta.model }),
    }),
    [a, b, prices],
  );
  const differences = useMemo(
    () => rows.flatMap((row, index) => (row.status === "same" ? [] : [index])),
    [rows],
  );
  const [current, setCurrent] = useState<number | null>(null);
  const scroller = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 160,
    overscan: 3,
    paddingEnd: 48,
  });

  const go = useCallback(
    (step: 1 | -1) => {
      if (differences.length === 0) return;
      const from = current ?? (step === 1 ? -1 : rows.length);
      const next =
        step === 1
          ? (differences.find((index) => index > from) ?? differences[0])
          : (differences.findLast((index) => index < from) ?? differences.at(-1));
      if (next === undefined) return;
      setCurrent(next);
      virtualizer.scrollToIndex(next, { align: "start" });
      // Focus follows, once the row is drawn, so a screen reader reads it.
      requestAnimationFrame(() =>
        scroller.current
          ?.querySelector<HTMLElement>(`[data-row="${next}"]`)
          ?.focus({ preventScroll: true }),
      );
    },
    [current, differences, rows.length, virtualizer],
  );

  useEffect(() => {
    const onKey = (key: KeyboardEvent) => {
      if (key.altKey || key.ctrlKey || key.metaKey) return;
      const target = key.target as HTMLElement | null;
      if (target?.closest("input, textarea, select, [contenteditable=true]")) return;
      if (key.key === "n" || key.key === "j") {
        key.preventDefault();
        go(1);
      } else if (key.key === "p" || key.key === "k") {
        key.preventDefault();
        go(-1);
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [go]);

  const position = current === null ? 0 : differences.indexOf(current) + 1;
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="shrink-0 border-b border-border bg-surface px-3 py-2">
        <div className="grid grid-cols-2 gap-3 text-[13px]">
          <Title side="A" transcript={a} />
          <Title side="B" transcript={b} />
        </div>
        <div className="mt-1.5">
          <SummaryTable a={summaries.a} b={summaries.b} />
        </div>
        <div className="mt-1.5 flex flex-wrap items-center gap-2 text-[12px]">
          <span className="text-fg-muted" data-testid="difference-count">
            {rows.length} {rows.length === 1 ? "row" : "rows"} ·{" "}
            {differences.length === 0
              ? "no differences"
              : `${differences.length} ${differences.length === 1 ? "row differs" : "rows differ"}`}
          </span>
          <button
            type="button"
            className={BUTTON}
            disabled={differences.length === 0}
            onClick={() => go(-1)}
            aria-keyshortcuts="p k"
          >
            ↑ Previous difference <kbd className={KBD}>p</kbd>
          </button>
          <button
            type="button"
            className={BUTTON}
            disabled={differences.length === 0}
            onClick={() => go(1)}
            aria-keyshortcuts="n j"
          >
            ↓ Next difference <kbd className={KBD}>n</kbd>
          </button>
          <span aria-live="polite" className="text-fg-muted" data-testid="difference-position">
            {position > 0 ? `difference ${position} of ${differences.length}` : ""}
          </span>
        </div>
      </div>
      <section
        ref={scroller}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
        tabIndex={0}
        className="min-h-0 flex-1 overflow-y-auto focus-visible:-outline-offset-2"
        data-testid="compare-rows"
        aria-label="Turns side by side"
      >
        <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index];
            if (row === undefined) return null;
            return (
              <div
                key={item.key}
                data-index={item.index}
                ref={virtualizer.measureElement}
                className="absolute left-0 top-0 w-full"
                style={{ transform: `translateY(${item.start}px)` }}
              >
                <CompareRowView row={row} index={item.index} current={item.index === current} />
              </div>
            );
          })}
        </div>
      </section>
    </div>
  );
}

function Title({ side, transcript }: { side: string; transcript: LoadedTranscript }) {
  const { meta } = transcript;
  const model =
    meta.model.provider === "demo" ? "demo" : `${meta.model.provider} · ${meta.model.id}`;
  return (
    <div className="min-w-0" data-testid={`compare-title-${side.toLowerCase()}`}>
      <span className="mr-1.5 rounded bg-surface-2 px-1.5 font-mono text-[11px] text-fg-muted">
        {side}
      </span>
      <a href={`/t/${encodeURIComponent(meta.id)}`} className="font-medium text-fg hover:underline">
        {meta.title}
      </a>
      <span className="ml-1.5 font-mono text-[11px] text-fg-subtle">
        {meta.definition?.name ?? meta.dialect} · {model}
      </span>
    </div>
  );
}

const BUTTON =
  "inline-flex items-center gap-1 rounded border border-border px-2 py-0.5 text-fg-muted hover:bg-surface-2 hover:text-fg disabled:opacity-40";
const KBD = "rounded border border-border px-1 font-mono text-[10px]";
