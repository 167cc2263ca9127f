"use client";

import { type KeyboardEvent, type PointerEvent, useRef } from "react";
import { usePlayground } from "@/state/playground-store";

const MIN = 320;
const MAX_SHARE = 0.75;

/** Drag (or arrow keys) to resize the debug panel. */
export function Splitter() {
  const width = usePlayground((state) => state.debugWidth);
  const setUi = usePlayground((state) => state.setUi);
  const start = useRef<{ x: number; width: number } | null>(null);

  const clamp = (value: number) =>
    Math.round(Math.min(window.innerWidth * MAX_SHARE, Math.max(MIN, value)));
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    start.current = { x: event.clientX, width };
    event.currentTarget.setPointerCapture(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (start.current === null) return;
    setUi({ debugWidth: clamp(start.current.width + start.current.x - event.clientX) });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === "ArrowLeft") setUi({ debugWidth: clamp(width + 24) });
    if (event.key === "ArrowRight") setUi({ debugWidth: clamp(width - 24) });
  };

  return (
    // biome-ignore lint/a11y/useSemanticElements: a vertical splitter has no native element
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label="Resize the debug panel"
      aria-valuenow={width}
      tabIndex={0}
      className="w-1 shrink-0 cursor-col-resize bg-transparent transition-colors hover:bg-accent/40 focus-visible:bg-accent/60 focus-visible:outline-none"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={() => {
        start.current = null;
      }}
      onKeyDown={onKeyDown}
    />
  );
}
