"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { memo, useEffect, useLayoutEffect, useRef, useState } from "react";
import { useStickToBottom } from "@/components/scroll/use-stick-to-bottom";
import { usePlayground } from "@/state/playground-store";
import { CardMemoryProvider } from "./card-memory";
import { cardIdOf } from "./card-of";
import { EmptyState } from "./empty-state";
import { EventCard } from "./event-card";
import { loadJsonHighlighter } from "./json-highlighter";
import { OlderRecords, useLoadOlderNearTop } from "./older-records";
import { RunStatusLine } from "./run-status-line";
import { noteScroll } from "./scroll-activity";
import { useTimelineRows } from "./use-timeline-rows";

/** Room above the first card, px. */
const PADDING_START = 16;
/** Cards drawn beyond each edge of the view, so a scroll finds them ready. */
const OVERSCAN = 8;

/**
 * The run as cards, streaming live. Virtualized with measured rows so a run of thousands of
 * events stays smooth; follows the newest card while the user is at the bottom.
 */
export function Timeline() {
  const ids = useTimelineRows();
  const log = usePlayground((state) => state.log);
  const status = usePlayground((state) => state.status);
  const selectedId = usePlayground((state) => state.selectedId);
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useStickToBottom(scroller);
  useLoadOlderNearTop(scroller);
  const painted = usePainted(ids.length === 0);
  usePreloadHighlighter();

  const virtualizer = useVirtualizer({
    count: ids.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 56,
    getItemKey: (index) => ids[index] ?? index,
    // An empty timeline given cards (a long transcript opened) paints those on screen first;
    // the ones around them follow in the next task.
    overscan: painted ? OVERSCAN : 0,
    paddingStart: PADDING_START,
    paddingEnd: 24,
    // A measurement changed (a card grew as it streamed): follow it before the next paint.
    onChange: () => stick.follow(),
    measureElement: measureFromObserver,
  });
  // Keep what the user looks at still: only cards wholly above the view move the scroll, and
  // none while the view follows the bottom (`follow` keeps it there, `isStuck`).
  virtualizer.shouldAdjustScrollPositionOnItemSizeChange = (item, _delta, instance) =>
    !stick.isStuck() && item.end <= (instance.scrollOffset ?? 0);

  const totalSize = virtualizer.getTotalSize();

  // Older records came in front (scrolling up a long transcript): the cards the user was
  // looking at stay where they were, moved down by what was put above them.
  const firstId = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    const previous = firstId.current;
    firstId.current = ids[0];
    const element = scroller.current;
    if (previous === undefined || ids[0] === previous || element === null) return;
    const index = ids.indexOf(previous);
    const item = index > 0 ? virtualizer.measurementsCache[index] : undefined;
    if (item !== undefined) element.scrollTop += item.start - PADDING_START;
  }, [ids, virtualizer]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: follow whenever rows or their size change
  useLayoutEffect(() => stick.follow(), [ids, totalSize, status, stick.follow]);

  // A new run (or conversation) starts at its newest card, wherever the last one was left.
  useLayoutEffect(() => {
    if (log.events.length === 0) stick.jumpToLatest();
  }, [log, stick.jumpToLatest]);

  // A selection made elsewhere (raw text, the Events tab) brings its card into view. The card
  // may not be rendered at all (virtualized), so it is found by index, not in the DOM.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the selection changes
  useEffect(() => {
    if (selectedId === null) return;
    const card = cardIdOf(usePlayground.getState().log, selectedId);
    const index = card === undefined ? -1 : ids.indexOf(card);
    const element = scroller.current;
    if (index === -1 || element === null) return;
    const item = virtualizer.measurementsCache[index];
    const top = element.scrollTop;
    const seen = item !== undefined && item.end > top && item.start < top + element.clientHeight;
    if (!seen) virtualizer.scrollToIndex(index, { align: "center" });
  }, [selectedId]);

  const empty = ids.length === 0;
  return (
    <CardMemoryProvider>
      <div className="relative flex min-h-0 flex-1 flex-col">
        <OlderRecords focusWhenGone={() => firstCardInView(scroller.current)} />
        <div
          ref={scroller}
          // Room at the bottom for "Jump to latest": a card the focus scrolls to stays clear of it.
          className="min-h-0 flex-1 scroll-pb-12 overflow-y-auto [overflow-anchor:none]"
          data-testid="timeline"
          // Only the user's scrolling (away from the bottom), not following a streaming run.
          onScroll={stick.detached ? noteScroll : undefined}
        >
          {empty ? (
            status === "idle" ? (
              <EmptyState />
            ) : status === "done" ? (
              // A saved conversation with nothing in it (made through the API, say).
              <p
                className="mx-auto max-w-xl px-6 py-16 text-[13px] text-fg-muted"
                data-testid="timeline-empty-saved"
              >
                This conversation has no events yet. Send a message to start it.
              </p>
            ) : null
          ) : (
            <div className="relative mx-auto w-full max-w-[52rem]" style={{ height: totalSize }}>
              {virtualizer.getVirtualItems().map((item) => (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="absolute top-0 left-0 w-full px-4 pb-2"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <TimelineRow id={ids[item.index] ?? ""} />
                </div>
              ))}
            </div>
          )}
          {empty ? null : <RunStatusLine />}
        </div>
        {stick.detached && !empty ? (
          <button
            type="button"
            onClick={stick.jumpToLatest}
            className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full border border-border bg-surface-2 px-3 py-1 text-xs text-fg shadow-lg shadow-black/20 hover:border-fg-subtle"
          >
            <span aria-hidden="true">↓ </span>
            Jump to latest
          </button>
        ) : null}
      </div>
    </CardMemoryProvider>
  );
}

/** False while the timeline is empty and until the frame after its first cards render. */
function usePainted(empty: boolean): boolean {
  const [painted, setPainted] = useState(false);
  if (empty && painted) setPainted(false);
  useEffect(() => {
    if (empty || painted) return;
    const frame = requestAnimationFrame(() => setPainted(true));
    return () => cancelAnimationFrame(frame);
  }, [empty, painted]);
  return painted;
}

/**
 * A row's size from its ResizeObserver entry only. The default reads `offsetHeight` when a
 * row mounts, which forces a layout of the whole page once per row (619 ms at 50,000 events);
 * a new row keeps its cached size or the estimate until the observer reports, a frame later.
 */
const measureFromObserver: NonNullable<
  Parameters<typeof useVirtualizer<HTMLDivElement, Element>>[0]["measureElement"]
> = (element, entry, instance) => {
  const box = entry?.borderBoxSize?.[0];
  if (box !== undefined) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  const key = instance.options.getItemKey(index);
  return instance.itemSizeCache.get(key) ?? instance.options.estimateSize(index);
};

const TimelineRow = memo(function TimelineRow({ id }: { id: string }) {
  const event = usePlayground((state) => state.log.get(id));
  return event === undefined ? null : <EventCard event={event} />;
});

/**
 * Loads the JSON highlighter when the page is first idle, so the first call card of a run
 * started later does not pay for it in the middle of the stream (a page opened on a
 * transcript with JSON on screen loads it at once anyway).
 */
function usePreloadHighlighter(): void {
  useEffect(() => {
    if (typeof window.requestIdleCallback !== "function") return;
    const handle = window.requestIdleCallback(() => void loadJsonHighlighter(), { timeout: 5000 });
    return () => window.cancelIdleCallback(handle);
  }, []);
}

/** The first card the timeline shows whole (or in part), if any. */
function firstCardInView(scroller: HTMLElement | null): HTMLElement | undefined {
  if (scroller === null) return undefined;
  const view = scroller.getBoundingClientRect();
  const cards = scroller.querySelectorAll<HTMLElement>("[data-event-id][tabindex]");
  return [...cards].find((card) => card.getBoundingClientRect().bottom > view.top);
}
