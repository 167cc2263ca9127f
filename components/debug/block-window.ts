"use client";

import { createContext } from "react";

/** How far beyond the Raw view's edges blocks are drawn, so a scroll finds them ready. */
const MARGIN = "600px 0px";

type Listener = (shown: boolean, height: number) => void;

/**
 * Which blocks of raw lines are near the Raw view's visible area: only those are drawn; the
 * others are empty boxes of their last known height. One `IntersectionObserver` for the whole
 * view: it reports sizes without forcing a layout, and costs nothing while nothing moves.
 * Without `IntersectionObserver` (jsdom), every block is drawn.
 */
export class BlockWindow {
  readonly windowed = typeof IntersectionObserver !== "undefined";
  private observer: IntersectionObserver | null = null;
  private readonly listeners = new Map<Element, Listener>();

  /** The scroller, once it exists (a ref callback: before any block's effect runs). */
  attach(root: HTMLElement | null): void {
    this.observer?.disconnect();
    this.observer = null;
    if (root === null || !this.windowed) return;
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries)
          this.listeners.get(entry.target)?.(entry.isIntersecting, entry.boundingClientRect.height);
      },
      { root, rootMargin: MARGIN },
    );
    for (const element of this.listeners.keys()) this.observer.observe(element);
  }

  observe(element: Element, listener: Listener): () => void {
    this.listeners.set(element, listener);
    this.observer?.observe(element);
    return () => {
      this.listeners.delete(element);
      this.observer?.unobserve(element);
    };
  }
}

export const BlockWindowContext = createContext<BlockWindow | null>(null);

/** True while the page's selection begins or ends inside `element`: it must stay drawn. */
export function holdsSelection(element: Element): boolean {
  const selection = globalThis.getSelection?.();
  if (selection === null || selection === undefined || selection.rangeCount === 0) return false;
  const { anchorNode, focusNode } = selection;
  return (
    (anchorNode !== null && element.contains(anchorNode)) ||
    (focusNode !== null && element.contains(focusNode))
  );
}
