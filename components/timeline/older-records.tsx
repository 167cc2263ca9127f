"use client";

import { type RefObject, useEffect, useLayoutEffect, useRef } from "react";
import { formatCount } from "@/components/debug/format-count";
import { usePlayground } from "@/state/playground-store";
import { isWhole, loadAll, loadOlder } from "@/state/transcript-pages";

/** Scrolled this close to the top of the timeline or Raw, the next older page loads. */
const NEAR_TOP_PX = 600;

/**
 * Says that only the newest records of the open transcript are shown, how many, and loads
 * older ones: a page, or all of them. Nothing when the whole transcript is loaded. The focus on
 * one of its buttons stays there while a page loads (they are `aria-disabled`, not disabled,
 * which would drop it), and goes to what `focusWhenGone` names when the last page has made it go.
 */
export function OlderRecords({
  className = "",
  focusWhenGone,
}: {
  className?: string;
  focusWhenGone?: () => HTMLElement | null | undefined;
}) {
  const transcript = usePlayground((state) => state.transcript);
  const open = usePlayground((state) => state.transcriptId === state.transcript?.meta.id);
  const loading = usePlayground((state) => state.olderLoading);
  const replaying = usePlayground((state) => state.replaying);
  const busy = usePlayground((state) => state.status === "running" || state.status === "stopping");
  // A replay reads what it needs itself, and shows its own records, not the loaded ones.
  if (transcript === null || !open || replaying || isWhole(transcript)) return null;
  const loaded = transcript.records.length;
  const total = transcript.recordCount ?? transcript.records.at(-1)?.seq ?? loaded;
  const idle = !loading && !busy;
  return (
    <OlderRecordsBar className={className} focusWhenGone={focusWhenGone}>
      <span aria-live="polite">
        {loading
          ? "Loading older records…"
          : `Showing the last ${formatCount(loaded)} of ${formatCount(total)} records`}
      </span>
      <span className="ml-auto flex gap-1">
        <button
          type="button"
          aria-disabled={!idle}
          onClick={() => {
            if (idle) void loadOlder();
          }}
          className={BUTTON}
        >
          Load older
        </button>
        <button
          type="button"
          aria-disabled={!idle}
          onClick={() => {
            if (idle) void loadAll();
          }}
          title="Read every record of the transcript (re-runs do this themselves; replay reads as it plays)"
          className={BUTTON}
        >
          Load all
        </button>
      </span>
    </OlderRecordsBar>
  );
}

/** The bar; as it goes, a focus inside it moves to `focusWhenGone()`, not to the page's start. */
function OlderRecordsBar({
  className,
  focusWhenGone,
  children,
}: {
  className: string;
  focusWhenGone: (() => HTMLElement | null | undefined) | undefined;
  children: React.ReactNode;
}) {
  const bar = useRef<HTMLDivElement>(null);
  // The latest, read as the bar goes: the caller's function is a new one each render, and an
  // effect that depended on it ran its cleanup (and moved the focus) on every render.
  const target = useRef(focusWhenGone);
  useLayoutEffect(() => {
    target.current = focusWhenGone;
  });
  // Only as the bar goes; a layout effect's cleanup runs while it is still in the document.
  useLayoutEffect(() => {
    const element = bar.current;
    return () => {
      if (element?.contains(document.activeElement))
        requestAnimationFrame(() => target.current?.()?.focus({ preventScroll: true }));
    };
  }, []);
  return (
    <div
      ref={bar}
      data-testid="older-records"
      className={`flex shrink-0 flex-wrap items-center gap-x-2 gap-y-1 border-b border-border bg-surface px-3 py-1 text-[11px] text-fg-muted ${className}`}
    >
      {children}
    </div>
  );
}

/**
 * Loads the next older page when the user scrolls `scroller` near its top. The check runs in
 * the capture phase, before the scroller's own listeners: the virtualizer renders the cards
 * that scrolled in from its listener, and reading `scrollTop` after that forced a layout of
 * those new cards inside the scroll event (13–18 ms of a 50,000-event transcript's frames),
 * on top of the frame's own.
 */
export function useLoadOlderNearTop(scroller: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    const onScroll = () => {
      if (element.scrollTop > NEAR_TOP_PX) return;
      const state = usePlayground.getState();
      if (state.olderLoading || isWhole(state.transcript)) return;
      if (state.transcript?.meta.id !== state.transcriptId) return;
      void loadOlder();
    };
    element.addEventListener("scroll", onScroll, { passive: true, capture: true });
    return () => element.removeEventListener("scroll", onScroll, { capture: true });
  }, [scroller]);
}

const BUTTON =
  "rounded border border-border px-1.5 py-0.5 text-fg-muted hover:border-fg-subtle hover:text-fg aria-disabled:cursor-default aria-disabled:opacity-50";
