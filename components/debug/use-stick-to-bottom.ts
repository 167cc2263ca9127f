"use client";

import { type RefObject, useCallback, useEffect, useRef } from "react";

/** How close to the bottom counts as "at the bottom", px. */
const SLACK = 24;

/**
 * Keeps a scroller pinned to its bottom while content streams in, as long as the user has
 * not scrolled away; scrolling back to the bottom re-pins it. The scroll happens in the next
 * frame, so a render never forces a synchronous layout. Returns the scroll handler to attach.
 * `startPinned` false: a view that opens where the user was (Raw after older records came).
 */
export function useStickToBottom(
  scroller: RefObject<HTMLElement | null>,
  startPinned = true,
): () => void {
  const pinned = useRef(startPinned);
  const frame = useRef(0);
  /**
   * Where our own last scroll put the scroller: its scroll event is not the user's. Null when
   * there is none pending (not -1: a scroll to the very top, 0, would read as ours).
   */
  const ownTop = useRef<number | null>(null);

  const pull = useCallback(() => {
    if (!pinned.current || frame.current !== 0) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const element = scroller.current;
      if (element === null || !pinned.current) return;
      element.scrollTop = element.scrollHeight;
      ownTop.current = element.scrollTop;
    });
  }, [scroller]);
  useEffect(pull);
  // Content grows without a render here too (a block drawing its lines as it comes into view,
  // highlighting): the view opened at 1024×768 stopped 63 px short of the end. Each child's
  // size is watched (observing one already watched does nothing).
  const sizes = useRef<ResizeObserver | null>(null);
  const watched = useRef(new Set<Element>());
  useEffect(() => {
    const element = scroller.current;
    if (element === null || typeof ResizeObserver === "undefined") return;
    sizes.current ??= new ResizeObserver(pull);
    const children = new Set(element.children);
    for (const child of watched.current) {
      if (!children.has(child)) sizes.current.unobserve(child);
    }
    for (const child of children) sizes.current.observe(child);
    watched.current = children;
  });
  useEffect(
    () => () => {
      if (frame.current !== 0) cancelAnimationFrame(frame.current);
      frame.current = 0;
      sizes.current?.disconnect();
    },
    [],
  );

  /** Where the scroller was at its last scroll event. */
  const lastTop = useRef(0);
  return useCallback(() => {
    const element = scroller.current;
    if (element === null) return;
    const top = element.scrollTop;
    const movedUp = top < lastTop.current - 1;
    lastTop.current = top;
    // Content may have grown between our scroll and its event; that is not the user leaving.
    if (ownTop.current !== null && Math.abs(top - ownTop.current) <= 1) return;
    ownTop.current = null;
    if (top + element.clientHeight >= element.scrollHeight - SLACK) pinned.current = true;
    // Only a move upwards lets go: the browser's own moves (keeping what is on screen in place
    // while lines above are drawn) go down, and had let go 63 px short of the end.
    else if (movedUp) pinned.current = false;
  }, [scroller]);
}
