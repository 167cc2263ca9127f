"use client";

import { type RefObject, useEffect, useRef, useState } from "react";
import { type Band, itemsNear } from "./near-items";

/** How far outside the scrolled view an item still counts as near. */
const MARGIN_PX = 400;

/**
 * The items of a scrolled list (`container`'s elements matching `selector`, by index) that are,
 * or have been, near its visible part since `resetKey` last changed. Nothing here reads the
 * layout (that would lay out the whole list at once): the first guess comes from `heights`
 * (estimates) and where the list was scrolled, and an IntersectionObserver (which the browser
 * answers from its own layout, after the frame) adds what it sees. An item stays in the set
 * once it has been near, so scrolling back never redoes work.
 */
export function useNearItems(
  container: RefObject<HTMLElement | null>,
  selector: string,
  resetKey: unknown,
  heights: readonly number[],
): ReadonlySet<number> {
  // Where the list was scrolled and how tall it shows, as last seen (read in events, not after
  // a render, so reading them never forces a layout).
  const scrolled = useRef<Band>({ top: 0, bottom: 900 });
  const [near, setNear] = useState<{ key: unknown; items: ReadonlySet<number> }>({
    key: undefined,
    items: new Set(),
  });

  // With each list (the element itself may have come with the first): follow where it is
  // scrolled, and observe its items.
  useEffect(() => {
    const element = container.current;
    if (element === null) return;
    const stopFollowing = follow(element, scrolled);
    if (typeof IntersectionObserver === "undefined") return stopFollowing;
    const items = [...element.querySelectorAll<HTMLElement>(selector)];
    const indexOf = new Map(items.map((item, index) => [item, index]));
    const observer = new IntersectionObserver(
      (entries) => {
        const seen = entries
          .filter((entry) => entry.isIntersecting)
          .map((entry) => indexOf.get(entry.target as HTMLElement) ?? -1)
          .filter((index) => index >= 0);
        if (seen.length === 0) return;
        setNear((current) => {
          const known = current.key === resetKey ? current.items : new Set<number>();
          if (current.key === resetKey && seen.every((index) => known.has(index))) return current;
          return { key: resetKey, items: new Set([...known, ...seen]) };
        });
      },
      { root: element, rootMargin: `${MARGIN_PX}px 0px` },
    );
    for (const item of items) observer.observe(item);
    return () => {
      observer.disconnect();
      stopFollowing();
    };
  }, [container, selector, resetKey]);

  if (near.key === resetKey) return near.items;
  // A new list: guess from the estimates, before the observer has seen it.
  const guess = new Set(itemsNear(stack(heights), scrolled.current, MARGIN_PX));
  setNear({ key: resetKey, items: guess });
  return guess;
}

/** The bands of items of these heights, stacked from 0. */
function stack(heights: readonly number[]): Band[] {
  let top = 0;
  return heights.map((height) => {
    const band = { top, bottom: top + height };
    top += height;
    return band;
  });
}

/** Keeps `scrolled` at `element`'s scrolled band, read in its scroll and resize events. */
function follow(element: HTMLElement, scrolled: { current: Band }): () => void {
  const onScroll = () => {
    const height = scrolled.current.bottom - scrolled.current.top;
    scrolled.current = { top: element.scrollTop, bottom: element.scrollTop + height };
  };
  const resize =
    typeof ResizeObserver === "undefined"
      ? null
      : new ResizeObserver(([entry]) => {
          if (entry === undefined) return;
          const { top } = scrolled.current;
          scrolled.current = { top, bottom: top + entry.contentRect.height };
        });
  element.addEventListener("scroll", onScroll, { passive: true });
  resize?.observe(element);
  return () => {
    element.removeEventListener("scroll", onScroll);
    resize?.disconnect();
  };
}
