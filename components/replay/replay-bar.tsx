"use client";

import { type MouseEvent, useMemo } from "react";
import { useReplayShortcut } from "@/components/shortcuts/replay-target";
import { PauseIcon, PlayIcon, StepBackIcon, StepForwardIcon } from "@/components/transcripts/icons";
import type { StepUnit } from "@/lib/replay/cursor";
import type { OpenTranscript } from "@/state/playground-store";
import { DiffNotice } from "./diff-notice";
import { replayMarks } from "./marks";
import { Scrubber } from "./scrubber";
import { formatReplayTime, parseSpeed, SPEED_OPTIONS } from "./speeds";
import { useReplay } from "./use-replay";
import { useReplaySource } from "./use-replay-source";

/**
 * Replays the opened transcript: its recorded chunks through the current parser, at the
 * recorded pace (or faster), into the timeline and debug panel. Says where the re-parse
 * differs from the recording. A transcript opened from its tail is read from its start as it
 * plays (`replay-session.ts`): Play starts at once, whatever its length.
 */
export function ReplayBar({ transcript, busy }: { transcript: OpenTranscript; busy: boolean }) {
  const { open, resting } = useReplaySource(transcript);
  const replay = useReplay(open, resting);
  const { view } = replay;
  useReplayShortcut(view.playing, replay.play, replay.pause);
  // The entries and diffs grow in place as a long transcript is read: the view counts them.
  const marks = useMemo(
    () => replayMarks(replay.entries, view.duration, view.planned),
    [replay.entries, view.duration, view.planned],
  );
  const diffs = useMemo(
    () => replay.diffs.slice(0, view.differences),
    [replay.diffs, view.differences],
  );
  const events = marks.reduce((sum, mark) => sum + mark.count, 0);
  const empty = resting.complete && resting.entries.length === 0;

  return (
    <div data-testid="replay-bar">
      <div className="flex h-9 items-center gap-1.5 px-3">
        <button
          type="button"
          className={CONTROL}
          aria-label="Step back"
          title="Step back one event (Shift: one streamed piece)"
          disabled={busy || empty}
          onClick={(click) => replay.stepBack(unitOf(click))}
        >
          <StepBackIcon />
        </button>
        {view.playing ? (
          <button type="button" className={CONTROL} aria-label="Pause" onClick={replay.pause}>
            <PauseIcon />
          </button>
        ) : (
          <button
            type="button"
            className={CONTROL}
            aria-label="Play"
            title="Replay through the current parser"
            disabled={busy || empty}
            onClick={replay.play}
          >
            <PlayIcon />
          </button>
        )}
        <button
          type="button"
          className={CONTROL}
          aria-label="Step forward"
          title="Step forward one event (Shift: one streamed piece)"
          disabled={busy || empty}
          onClick={(click) => replay.stepForward(unitOf(click))}
        >
          <StepForwardIcon />
        </button>
        <select
          aria-label="Replay speed"
          value={String(view.speed)}
          onChange={(change) => {
            const speed = parseSpeed(change.target.value);
            if (speed !== undefined) replay.setSpeed(speed);
          }}
          className="h-6 w-auto min-w-[4.5rem] shrink-0 rounded border border-border bg-bg px-1 font-mono text-[11px] text-fg-muted focus:border-accent"
        >
          {SPEED_OPTIONS.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <Scrubber
          marks={marks}
          duration={view.duration}
          position={view.position}
          // At rest the log shows the transcript as stored, to its end, read or not.
          loaded={view.complete || !view.engaged ? view.duration : view.loaded}
          estimated={!view.exact}
          onSeek={busy ? () => {} : replay.seek}
        />
        <span className="shrink-0 font-mono text-[11px] text-fg-subtle tabular-nums">
          <span className="text-fg" data-testid="replay-time">
            {formatReplayTime(view.position)}
          </span>
          {" / "}
          <span
            data-testid="replay-duration"
            title={view.exact ? undefined : "About: the rest is read as the replay plays"}
          >
            {view.exact ? "" : "~"}
            {formatReplayTime(view.duration)}
          </span>
        </span>
        <span
          role="status"
          className="shrink-0 font-mono text-[11px] text-fg-subtle empty:hidden"
          data-testid="replay-loading"
        >
          {view.loading ? "Loading…" : ""}
        </span>
        <span className="hidden shrink-0 font-mono text-[11px] text-fg-subtle 2xl:inline">
          {events}
          {view.complete ? "" : "+"} events
        </span>
        {view.engaged ? (
          <button
            type="button"
            className="shrink-0 rounded px-1.5 py-0.5 text-[11px] text-fg-muted hover:bg-surface-2 hover:text-fg"
            onClick={(click) => {
              // The button goes with the replay: the focus goes to Play (beside it), not to
              // the page's start.
              const bar = click.currentTarget.closest("[data-testid=replay-bar]");
              replay.exit();
              requestAnimationFrame(() =>
                bar?.querySelector<HTMLElement>('button[aria-label="Play"]')?.focus(),
              );
            }}
            title="Show the transcript as recorded"
          >
            Exit replay
          </button>
        ) : null}
      </div>
      <DiffNotice diffs={diffs} />
    </div>
  );
}

/** A step by event; with Shift, by one streamed piece. */
const unitOf = (click: MouseEvent): StepUnit => (click.shiftKey ? "piece" : "event");

const CONTROL =
  "inline-flex size-6 shrink-0 items-center justify-center rounded text-fg-muted hover:bg-surface-2 hover:text-fg disabled:opacity-40";
