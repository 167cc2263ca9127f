"use client";

import { type MouseEvent, useDeferredValue, useEffect, useMemo, useRef } from "react";
import { useReplayShortcut } from "@/components/shortcuts/replay-target";
import { PauseIcon, PlayIcon, StepBackIcon, StepForwardIcon } from "@/components/transcripts/icons";
import { dialectOf } from "@/lib/protocol";
import type { StepUnit } from "@/lib/replay/cursor";
import type { OpenTranscript } from "@/state/playground-store";
import { isWhole, loadAll } from "@/state/transcript-pages";
import { DiffNotice } from "./diff-notice";
import { planReplay } from "./replay-plan";
import { Scrubber } from "./scrubber";
import { formatReplayTime, parseSpeed, SPEED_OPTIONS } from "./speeds";
import { useReplay } from "./use-replay";

/**
 * Replays the opened transcript: its recorded chunks through the current parser, at the
 * recorded pace (or faster), into the timeline and debug panel. Says where the re-parse
 * differs from the recording.
 */
export function ReplayBar({ transcript, busy }: { transcript: OpenTranscript; busy: boolean }) {
  // Planning re-parses every loaded turn: in its own deferred render, after the cards paint.
  const records = useDeferredValue(transcript.records, NO_RECORDS);
  const plan = useMemo(
    () => planReplay(dialectOf(transcript.meta), records),
    [transcript.meta, records],
  );
  const loaded = useReplay(plan);
  const replay = useWholeTranscript({ ...transcript, records }, loaded);
  const { view } = replay;
  useReplayShortcut(view.playing, replay.play, replay.pause);
  const events = plan.marks.reduce((sum, mark) => sum + mark.count, 0);

  return (
    <div data-testid="replay-bar">
      <div className="flex h-9 items-center gap-1.5 px-3">
        <button
          type="button"
          className={CONTROL}
          aria-label="Step back"
          title="Step back one event (Shift: one streamed piece)"
          disabled={busy || plan.entries.length === 0}
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
            disabled={busy || plan.entries.length === 0}
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
          disabled={busy || plan.entries.length === 0}
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
          marks={plan.marks}
          duration={plan.duration}
          position={view.position}
          onSeek={busy ? () => {} : replay.seek}
        />
        <span className="shrink-0 font-mono text-[11px] text-fg-subtle tabular-nums">
          <span className="text-fg" data-testid="replay-time">
            {formatReplayTime(view.position)}
          </span>
          {" / "}
          <span data-testid="replay-duration">{formatReplayTime(plan.duration)}</span>
        </span>
        <span className="hidden shrink-0 font-mono text-[11px] text-fg-subtle 2xl:inline">
          {events} events
        </span>
        {view.engaged ? (
          <button
            type="button"
            className="shrink-0 rounded px-1.5 py-0.5 text-[11px] text-fg-muted hover:bg-surface-2 hover:text-fg"
            onClick={replay.exit}
            title="Show the transcript as recorded"
          >
            Exit replay
          </button>
        ) : null}
      </div>
      <DiffNotice diffs={plan.diffs} />
    </div>
  );
}

type Replay = ReturnType<typeof useReplay>;

const NO_RECORDS: OpenTranscript["records"] = [];

/**
 * Replay needs every record: with only the tail of a long transcript loaded, a control reads
 * the rest first (`loadAll`), then does what was asked, on the plan of the whole transcript.
 */
/** `transcript` as planned: with the (deferred) records the plan was made from. */
function useWholeTranscript(transcript: OpenTranscript, replay: Replay): Replay {
  const whole = isWhole(transcript);
  const waiting = useRef<((replay: Replay) => void) | null>(null);
  useEffect(() => {
    const action = waiting.current;
    if (!whole || action === null) return;
    waiting.current = null;
    action(replay);
  });
  if (whole) return replay;
  const later = (action: (replay: Replay) => void) => (): void => {
    waiting.current = action;
    void loadAll();
  };
  return {
    ...replay,
    play: later((next) => next.play()),
    stepForward: (unit) => later((next) => next.stepForward(unit))(),
    stepBack: (unit) => later((next) => next.stepBack(unit))(),
    seek: (position) => later((next) => next.seek(position))(),
  };
}

/** A step by event; with Shift, by one streamed piece. */
const unitOf = (click: MouseEvent): StepUnit => (click.shiftKey ? "piece" : "event");

const CONTROL =
  "inline-flex size-6 shrink-0 items-center justify-center rounded text-fg-muted hover:bg-surface-2 hover:text-fg disabled:opacity-40";
