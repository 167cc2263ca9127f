"use client";

import { useEffect } from "react";

/** What the Space shortcut drives: the open transcript's replay, when there is one. */
export interface ReplayTarget {
  toggle(): void;
}

let target: ReplayTarget | null = null;

/** The replay bar registers itself while mounted (one at a time: the open transcript's). */
export function useReplayShortcut(playing: boolean, play: () => void, pause: () => void): void {
  useEffect(() => {
    const mine: ReplayTarget = { toggle: playing ? pause : play };
    target = mine;
    return () => {
      if (target === mine) target = null;
    };
  });
}

export function toggleReplay(): boolean {
  if (target === null) return false;
  target.toggle();
  return true;
}
