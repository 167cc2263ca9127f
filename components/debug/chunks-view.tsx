"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import { useStickToBottom } from "@/components/scroll/use-stick-to-bottom";
import { useFrameVersion } from "@/hooks/use-frame-version";
import type { ChunkEntry } from "@/lib/client/run-log";
import { usePlayground } from "@/state/playground-store";
import { ChunkText } from "./visible-whitespace";

const GRID = "grid grid-cols-[3.5rem_4.5rem_2.5rem_2rem_minmax(0,1fr)] gap-x-2";
const utf8 = new TextEncoder();

/** Chunks: every raw chunk as it arrived — index, time since the run started, size, turn, text. */
export function ChunksView() {
  useFrameVersion();
  const log = usePlayground((state) => state.log);
  const chunks = log.chunks;
  const scroller = useRef<HTMLDivElement>(null);
  const stick = useStickToBottom(scroller, { watchChildren: true });
  // After each render (a new chunk), in the next frame.
  useEffect(stick.followInFrame);

  const virtualizer = useVirtualizer({
    count: chunks.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 22,
    overscan: 20,
    initialRect: { width: 480, height: 800 },
  });

  const onPick = (chunk: ChunkEntry) => {
    // The event that owns the chunk's first character: the same link as a click in Raw.
    const event = log.eventAt(chunk.turn, chunk.offset);
    usePlayground.getState().select(event?.id ?? null, chunk.turn);
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col font-mono text-xs" data-testid="chunks-view">
      <div
        className={`${GRID} border-b border-border px-3 py-1 text-[11px] text-fg-subtle`}
        aria-hidden="true"
      >
        <span className="text-right">#</span>
        <span className="text-right">t ms</span>
        <span className="text-right">size</span>
        <span className="text-right">turn</span>
        <span>text</span>
      </div>
      <div ref={scroller} className="min-h-0 flex-1 overflow-auto bg-wire-bg">
        {chunks.length === 0 ? (
          <p className="p-4 font-sans text-fg-subtle">No chunks yet.</p>
        ) : (
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const chunk = chunks[item.index];
              if (chunk === undefined) return null;
              const previous = chunks[item.index - 1];
              const gap = previous === undefined ? chunk.t : chunk.t - previous.t;
              return (
                <button
                  type="button"
                  key={item.key}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  data-chunk={chunk.index}
                  onClick={() => onPick(chunk)}
                  className={`${GRID} absolute top-0 left-0 w-full cursor-pointer text-left px-3 py-0.5 leading-[18px] hover:bg-surface-2 ${previous !== undefined && previous.turn !== chunk.turn ? "border-t border-border" : ""}`}
                  style={{ transform: `translateY(${item.start}px)` }}
                  title={`offset ${chunk.offset} in turn ${chunk.turn} · ${utf8.encode(chunk.text).length} bytes · +${gap.toFixed(1)} ms after the previous chunk`}
                >
                  <span className="text-right text-fg-subtle">{chunk.index}</span>
                  <span className="text-right text-fg-muted tabular-nums">
                    {chunk.t.toFixed(1)}
                  </span>
                  <span className="text-right text-fg-muted tabular-nums">{chunk.text.length}</span>
                  <span className="text-right text-fg-subtle">{chunk.turn}</span>
                  <span className="text-fg whitespace-pre-wrap [overflow-wrap:anywhere]">
                    <ChunkText text={chunk.text} />
                  </span>
                </button>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );
}
