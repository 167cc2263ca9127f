"use client";

import { useSyncExternalStore } from "react";

/** How long after the last scroll event the timeline counts as still moving, ms. */
const SETTLE_MS = 150;

let moving = false;
let timer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();

function set(next: boolean): void {
  if (moving === next) return;
  moving = next;
  for (const listener of listeners) listener();
}

/** Called on each scroll of the timeline: it counts as moving until it settles. */
export function noteScroll(): void {
  set(true);
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = null;
    set(false);
  }, SETTLE_MS);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * True while the timeline is being scrolled. Cards that mount meanwhile show their text plain
 * and parse their markdown once it settles: flinging through hundreds of answers parses none
 * of those that only fly past.
 */
export function useTimelineMoving(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => moving,
    () => false,
  );
}
