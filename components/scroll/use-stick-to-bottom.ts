"use client";

import { type RefObject, useCallback, useEffect, useRef, useState } from "react";

/** Scrolled this far from the bottom, the user has let go; back within `AT_BOTTOM_PX`, they hold on again. */
const LET_GO_PX = 48;
const AT_BOTTOM_PX = 4;

export interface StickToBottomOptions {
  /** False: the view opens where the user was (Raw after older records came), not following. */
  startStuck?: boolean;
  /**
   * Follow content that grows without a render (a Raw block drawing its lines as it comes into
   * view, highlighting): each child of the scroller is watched for its size. Not for the
   * timeline, whose virtualizer measures its rows and calls `follow` itself.
   */
  watchChildren?: boolean;
}

export interface StickToBottom {
  /** Call whenever content may have grown (a render, a measurement): follows now. */
  follow(): void;
  /**
   * Follows in the next frame (several calls, one scroll), so a render that calls it never
   * forces a layout in the middle of a commit (Raw and Chunks render once a frame while a run
   * streams).
   */
  followInFrame(): void;
  /** Scroll to the end and follow again. */
  jumpToLatest(): void;
  /** True when the user has scrolled up: show "Jump to latest". */
  detached: boolean;
  /**
   * Whether the view follows the bottom now (read at the moment: no re-render). A virtualizer
   * must not move the scroll to keep a card above the view still while it does: that move,
   * made from its own idea of the offset after ours to the bottom, is a move upwards, which
   * let go (a transcript opened at 1024×768 stopped 69 px short of its end).
   */
  isStuck(): boolean;
}

/**
 * Keeps a scroller at the bottom while its content grows, as long as the user is there: the
 * timeline, Raw and Chunks. Only a move upwards lets go (wheel, keys, scrollbar, a script);
 * the browser's own moves (keeping what is on screen in place while lines above are drawn) go
 * down, and had let go 63 px short of the end. Scrolling back down, or the jump button, takes
 * hold again. Our own scrolls always land at the bottom, so they never let go.
 */
export function useStickToBottom(
  scroller: RefObject<HTMLElement | null>,
  { startStuck = true, watchChildren = false }: StickToBottomOptions = {},
): StickToBottom {
  const stuck = useRef(startStuck);
  /** Where the scroller was last seen: a scroll upwards from there is the user's. */
  const lastTop = useRef(0);
  const [detached, setDetached] = useState(!startStuck);

  const toBottom = useCallback(() => {
    const element = scroller.current;
    if (element === null) return;
    element.scrollTop = element.scrollHeight;
    lastTop.current = element.scrollTop;
  }, [scroller]);

  /**
   * Reads where the scroller is: a move upwards since it was last seen, beyond the let-go
   * distance, is the user's (or a script's) and lets go.
   */
  const observe = useCallback((element: HTMLElement) => {
    const top = element.scrollTop;
    const distance = element.scrollHeight - top - element.clientHeight;
    // Scroll events arrive a frame late, after content may have grown under our own scroll to
    // the bottom: only a move upwards lets go. Between the two thresholds nothing changes.
    if (distance <= AT_BOTTOM_PX) stuck.current = true;
    else if (top < lastTop.current - 1 && distance > LET_GO_PX) stuck.current = false;
    lastTop.current = top;
  }, []);

  const follow = useCallback(() => {
    const element = scroller.current;
    if (element === null) return;
    // A scroll upwards whose event has not arrived yet must not be undone by this pull.
    observe(element);
    if (stuck.current) toBottom();
    else setDetached(true);
  }, [scroller, observe, toBottom]);

  const frame = useRef(0);
  const followInFrame = useCallback(() => {
    if (!stuck.current || frame.current !== 0) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      follow();
    });
  }, [follow]);
  useEffect(
    () => () => {
      if (frame.current !== 0) cancelAnimationFrame(frame.current);
      frame.current = 0;
    },
    [],
  );

  const jumpToLatest = useCallback(() => {
    stuck.current = true;
    setDetached(false);
    toBottom();
  }, [toBottom]);

  useEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    const onScroll = (event: Event) => {
      // Capture also sees the scrolls of boxes inside (a wide block scrolled sideways).
      if (event.target !== element) return;
      observe(element);
      setDetached(!stuck.current);
    };
    // A wheel turn upwards lets go at once, before the next chunk could pull the view back.
    const onWheel = (wheel: WheelEvent) => {
      if (wheel.deltaY < 0 && element.scrollTop > 0) {
        stuck.current = false;
        setDetached(true);
      }
    };
    // Capture: on the scroller itself this runs before a virtualizer's own scroll listener,
    // so a scroll the user made (scrollbar, keys) lets go before a re-render could follow.
    element.addEventListener("scroll", onScroll, { passive: true, capture: true });
    element.addEventListener("wheel", onWheel, { passive: true });
    return () => {
      element.removeEventListener("scroll", onScroll, { capture: true });
      element.removeEventListener("wheel", onWheel);
    };
  }, [scroller, observe]);

  useChildSizes(scroller, watchChildren ? followInFrame : null);

  const isStuck = useCallback(() => stuck.current, []);

  return { follow, followInFrame, jumpToLatest, detached, isStuck };
}

/**
 * Calls `onResize` when a child of the scroller changes size, the children read after each
 * render (observing one already watched does nothing). Null: watches nothing.
 */
function useChildSizes(
  scroller: RefObject<HTMLElement | null>,
  onResize: (() => void) | null,
): void {
  const sizes = useRef<ResizeObserver | null>(null);
  const watched = useRef(new Set<Element>());
  const latest = useRef(onResize);
  latest.current = onResize;
  useEffect(() => {
    const element = scroller.current;
    if (onResize === null || element === null || typeof ResizeObserver === "undefined") return;
    sizes.current ??= new ResizeObserver(() => latest.current?.());
    const children = new Set(element.children);
    for (const child of watched.current) {
      if (!children.has(child)) sizes.current.unobserve(child);
    }
    for (const child of children) sizes.current.observe(child);
    watched.current = children;
  });
  useEffect(
    () => () => {
      sizes.current?.disconnect();
      sizes.current = null;
      watched.current.clear();
    },
    [],
  );
}
