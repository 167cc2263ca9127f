"use client";

import { type KeyboardEvent, type PointerEvent, useRef } from "react";
import { shareOf } from "@/lib/client/layout";
import { usePlayground } from "@/state/playground-store";
import { useWindowWidth } from "./use-layout";

/**
 * Drag (or arrow keys) to resize the debug panel. The width is kept as a share of the window,
 * so it stays in proportion when the window changes; `planLayout` keeps it within bounds.
 */
export function Splitter({ width }: { width: number }) {
  const windowWidth = useWindowWidth();
  const setUi = usePlayground((state) => state.setUi);
  const start = useRef<{ x: number; width: number } | null>(null);

  const resize = (next: number) => setUi({ debugShare: shareOf(next, window.innerWidth) });
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    start.current = { x: event.clientX, width };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (start.current === null) return;
    resize(start.current.width + start.current.x - event.clientX);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "ArrowLeft") resize(width + 24);
    if (event.key === "ArrowRight") resize(width - 24);
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a vertical splitter has no native element
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the debug panel"
      aria-valuemin={10}
      aria-valuemax={70}
      aria-valuenow={Math.round((width / Math.max(1, windowWidth)) * 100)}
      aria-valuetext={`${width} px`}
      tabIndex={0}
      className="w-1 shrink-0 cursor-col-resize bg-transparent transition-colors hover:bg-accent/40 focus-visible:-outline-offset-2"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => {
        start.current = null;
      }}
      onKeyDown={onKeyDown}
    />
  );
}
