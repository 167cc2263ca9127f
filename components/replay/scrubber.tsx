"use client";

import { type KeyboardEvent, type PointerEvent, useRef } from "react";
import type { MarkTone, ReplayMark } from "./marks";
import { formatReplayTime } from "./speeds";

const MARK_COLOR: Record<MarkTone, string> = {
  error: "bg-danger",
  call: "bg-accent",
  user: "bg-info",
  plain: "bg-fg-subtle",
};

const MARK_SHAPE: Record<MarkTone, string> = {
  error: "h-3.5 w-0.5",
  call: "h-3.5 w-0.5",
  user: "h-3.5 w-0.5",
  plain: "h-2 w-px",
};

interface ScrubberProps {
  marks: readonly ReplayMark[];
  duration: number;
  position: number;
  /** ms that can be played at once; less than `duration` while a long transcript is read. */
  loaded?: number;
  /** `duration` is an estimate (the rest is still being read). */
  estimated?: boolean;
  onSeek(position: number): void;
}

/**
 * The run's time as a track: a mark per event (errors red, tool calls in the accent colour,
 * user messages blue), the played part filled, what is read so far shaded, a playhead. Click
 * or drag to seek (a place not read yet is read first); arrow keys move by a hundredth, Home
 * and End jump.
 */
export function Scrubber({
  marks,
  duration,
  position,
  loaded = duration,
  estimated = false,
  onSeek,
}: ScrubberProps) {
  const track = useRef<HTMLDivElement>(null);
  const shareOf = (ms: number) => (duration > 0 ? Math.min(1, Math.max(0, ms / duration)) : 1);
  const share = shareOf(position);
  // Played is what was shown: never past what is read (a seek there waits for it to be read).
  const played = Math.min(share, shareOf(loaded));

  const seekTo = (clientX: number) => {
    const box = track.current?.getBoundingClientRect();
    if (box === undefined || box.width === 0) return;
    onSeek(Math.min(1, Math.max(0, (clientX - box.left) / box.width)) * duration);
  };
  const onPointerDown = (pointer: PointerEvent<HTMLDivElement>) => {
    if (pointer.button !== 0) return;
    pointer.currentTarget.setPointerCapture(pointer.pointerId);
    seekTo(pointer.clientX);
  };
  const onPointerMove = (pointer: PointerEvent<HTMLDivElement>) => {
    if (pointer.currentTarget.hasPointerCapture(pointer.pointerId)) seekTo(pointer.clientX);
  };
  const onKeyDown = (key: KeyboardEvent<HTMLDivElement>) => {
    const step = Math.max(100, duration / 100);
    const moves: Record<string, number> = {
      ArrowLeft: position - step,
      ArrowRight: position + step,
      Home: 0,
      End: duration,
    };
    const target = moves[key.key];
    if (target === undefined) return;
    key.preventDefault();
    onSeek(Math.min(duration, Math.max(0, target)));
  };

  return (
    <div
      ref={track}
      role="slider"
      tabIndex={0}
      aria-label="Replay position"
      aria-valuemin={0}
      aria-valuemax={Math.round(duration)}
      aria-valuenow={Math.round(position)}
      aria-valuetext={`${formatReplayTime(position)} of ${estimated ? "about " : ""}${formatReplayTime(duration)}`}
      data-testid="replay-scrubber"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onKeyDown={onKeyDown}
      className="group relative h-6 min-w-24 flex-1 cursor-pointer touch-none rounded focus-visible:outline focus-visible:outline-1 focus-visible:outline-accent"
    >
      <div className="absolute inset-x-0 top-1/2 h-1 -translate-y-1/2 rounded-full bg-border" />
      {estimated ? (
        <div
          className="absolute top-1/2 left-0 h-1 -translate-y-1/2 rounded-full bg-fg-subtle/40"
          style={{ width: `${shareOf(loaded) * 100}%` }}
          data-testid="replay-loaded"
        />
      ) : null}
      <div
        className="absolute top-1/2 left-0 h-1 -translate-y-1/2 rounded-full bg-accent/35"
        style={{ width: `${played * 100}%` }}
      />
      {marks.map((mark) => (
        <span
          key={mark.position}
          data-tone={mark.tone}
          className={`pointer-events-none absolute top-1/2 -translate-x-1/2 -translate-y-1/2 rounded-full ${MARK_COLOR[mark.tone]} ${MARK_SHAPE[mark.tone]}`}
          style={{ left: `${mark.position * 100}%` }}
        />
      ))}
      <div
        className="pointer-events-none absolute top-0.5 bottom-0.5 w-0.5 -translate-x-1/2 rounded-full bg-fg shadow-[0_0_0_2px_var(--ws-surface)]"
        style={{ left: `${share * 100}%` }}
        data-testid="replay-playhead"
      />
    </div>
  );
}
