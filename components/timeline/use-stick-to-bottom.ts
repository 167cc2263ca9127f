"use client";

import { type RefObject, useCallback, useEffect, useRef, useState } from "react";

/** Scrolled this far from the bottom, the user has let go; back within `AT_BOTTOM_PX`, they hold on again. */
const LET_GO_PX = 48;
const AT_BOTTOM_PX = 4;

export interface StickToBottom {
  /** Call whenever content may have grown (a render, a measurement). */
  follow(): void;
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
 * Keeps a scroller at the bottom while its content grows, as long as the user is there.
 * Scrolling up (wheel, keys, scrollbar) lets go; scrolling back down, or the jump button,
 * takes hold again. Our own scrolls always land at the bottom, so they never let go.
 */
export function useStickToBottom(scroller: RefObject<HTMLElement | null>): StickToBottom {
  const stuck = useRef(true);
  /** Where the scroller was last seen: a scroll upwards from there is the user's. */
  const lastTop = useRef(0);
  const [detached, setDetached] = useState(false);

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

  const jumpToLatest = useCallback(() => {
    stuck.current = true;
    setDetached(false);
    toBottom();
  }, [toBottom]);

  useEffect(() => {
    const element = scroller.current;
    if (element === null) return;
    const onScroll = () => {
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
    // Capture: on the scroller itself this runs before the virtualizer's own scroll listener,
    // so a scroll the user made (scrollbar, keys) lets go before a re-render could follow.
    element.addEventListener("scroll", onScroll, { passive: true, capture: true });
    element.addEventListener("wheel", onWheel, { passive: true });
    return () => {
      element.removeEventListener("scroll", onScroll, { capture: true });
      element.removeEventListener("wheel", onWheel);
    };
  }, [scroller, observe]);

  const isStuck = useCallback(() => stuck.current, []);

  return { follow, jumpToLatest, detached, isStuck };
}
