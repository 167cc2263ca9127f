"use client";

import { type RefObject, useLayoutEffect, useState } from "react";
import { itemsNear } from "./near-items";

/** How far outside the scrolled view an item still counts as near: about a screen. */
const MARGIN_PX = 800;

/**
 * The items of a scrolled list (`container`'s elements matching `selector`, by index) that are,
 * or have been, near its visible part, since `resetKey` last changed. Read before the first
 * paint (a layout effect), then again as the list scrolls or resizes; an item stays in the set
 * once it has been near, so scrolling back never drops work already done.
 */
export function useNearItems(
  container: RefObject<HTMLElement | null>,
  selector: string,
  resetKey: unknown,
): ReadonlySet<number> {
  const [near, setNear] = useState<{ key: unknown; items: ReadonlySet<number> }>({
    key: resetKey,
    items: new Set(),
  });

  useLayoutEffect(() => {
    const element = container.current;
    if (element === null) return;
    let frame = 0;
    const measure = () => {
      frame = 0;
      const view = element.getBoundingClientRect();
      const items = [...element.querySelectorAll<HTMLElement>(selector)];
      const found = itemsNear(
        items.map((item) => item.getBoundingClientRect()),
        view,
        MARGIN_PX,
      );
      setNear((current) => {
        const base = current.key === resetKey ? current.items : new Set<number>();
        if (current.key === resetKey && found.every((index) => base.has(index))) return current;
        return { key: resetKey, items: new Set([...base, ...found]) };
      });
    };
    const later = () => {
      if (frame === 0) frame = requestAnimationFrame(measure);
    };
    measure();
    element.addEventListener("scroll", later, { passive: true });
    const resize = typeof ResizeObserver === "undefined" ? null : new ResizeObserver(later);
    resize?.observe(element);
    return () => {
      element.removeEventListener("scroll", later);
      resize?.disconnect();
      if (frame !== 0) cancelAnimationFrame(frame);
    };
  }, [container, selector, resetKey]);

  return near.key === resetKey ? near.items : NONE;
}

const NONE: ReadonlySet<number> = new Set();
