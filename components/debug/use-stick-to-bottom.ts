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

  useEffect(() => {
    if (!pinned.current || frame.current !== 0) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const element = scroller.current;
      if (element === null || !pinned.current) return;
      element.scrollTop = element.scrollHeight;
      ownTop.current = element.scrollTop;
    });
  });
  useEffect(
    () => () => {
      if (frame.current !== 0) cancelAnimationFrame(frame.current);
      frame.current = 0;
    },
    [],
  );

  return useCallback(() => {
    const element = scroller.current;
    if (element === null) return;
    // Content may have grown between our scroll and its event; that is not the user leaving.
    if (ownTop.current !== null && Math.abs(element.scrollTop - ownTop.current) <= 1) return;
    ownTop.current = null;
    pinned.current = element.scrollTop + element.clientHeight >= element.scrollHeight - SLACK;
  }, [scroller]);
}
