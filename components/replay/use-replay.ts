"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { ReplaySpeed } from "@/lib/replay/clock";
import type { StepUnit } from "@/lib/replay/cursor";
import type { ReplayDiff } from "@/lib/replay/diff";
import type { TimedRecord } from "@/lib/replay/timeline";
import type { StoredRecord } from "@/lib/store/store";
import { usePlayground } from "@/state/playground-store";
import { ReplayFold } from "./replay-fold";
import { ReplaySession, type ReplaySource, type SessionView } from "./replay-session";

export interface ReplayView extends SessionView {
  /** The log shows the replay; false: it shows the stored transcript, as loaded. */
  engaged: boolean;
}

/** What the bar shows while no replay runs: the transcript's length, the play head at its end. */
export interface RestingReplay {
  /** The records it is of: when they change (older ones read, a run's added), a replay ends. */
  records: readonly StoredRecord[];
  duration: number;
  /** `duration` is the whole length (all planned, or told by the transcript's runs). */
  exact: boolean;
  complete: boolean;
  entries: readonly TimedRecord[];
  diffs: readonly ReplayDiff[];
}

export interface ReplayControls {
  view: ReplayView;
  /** The planned entries (the marks are drawn from them) and the differences found so far. */
  entries: readonly TimedRecord[];
  diffs: readonly ReplayDiff[];
  play(): void;
  pause(): void;
  /** By event (a streamed one's pieces together), or by `"piece"`. */
  stepForward(unit?: StepUnit): void;
  stepBack(unit?: StepUnit): void;
  seek(position: number): void;
  setSpeed(speed: ReplaySpeed): void;
  /** Back to the stored transcript, as recorded. */
  exit(): void;
}

const restingView = (resting: RestingReplay, speed: ReplaySpeed): ReplayView => ({
  engaged: false,
  playing: false,
  speed,
  position: resting.duration,
  index: resting.entries.length,
  planned: resting.entries.length,
  differences: resting.diffs.length,
  duration: resting.duration,
  exact: resting.exact,
  loaded: resting.complete ? resting.duration : 0,
  complete: resting.complete,
  loading: false,
});

/**
 * Plays a transcript into the store's log through a `ReplaySession`: frames fold into the log
 * (a fresh one on `reset`), so the timeline and debug panel rebuild as they did live. The
 * session starts on the first control used (`open` says where its records come from: a long
 * transcript is read from its start as it plays); a run that starts ends it at once.
 */
export function useReplay(open: () => ReplaySource | null, resting: RestingReplay): ReplayControls {
  const session = useRef<ReplaySession | null>(null);
  const speed = useRef<ReplaySpeed>(1);
  const [view, setView] = useState<ReplayView>(() => restingView(resting, speed.current));

  const dispose = useCallback(() => {
    session.current?.dispose();
    session.current = null;
  }, []);

  // The transcript changed under the bar (older records read, a run's records added): a replay
  // under way ends, and the log shows the stored transcript again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the records change, not the length told
  useEffect(
    () => () => {
      if (session.current === null) return;
      dispose();
      if (usePlayground.getState().replaying) showStored();
    },
    [resting.records, dispose],
  );
  // At rest, the bar follows what is known of the transcript (its whole length once its runs
  // are told); a replay under way keeps its own view.
  useEffect(() => {
    if (session.current === null) setView(restingView(resting, speed.current));
  }, [resting]);

  // Synchronous: no replay frame may land in a live run's log, or in another transcript's
  // (at a fast speed, frames can keep the render that would end the session from committing).
  useEffect(
    () =>
      usePlayground.subscribe((state, previous) => {
        const started = state.status === "running" && previous.status !== "running";
        if ((started || state.transcriptId !== previous.transcriptId) && session.current) {
          dispose();
          setView(restingView(resting, speed.current));
        }
      }),
    [resting, dispose],
  );

  const engage = (): ReplaySession | null => {
    if (session.current !== null) return session.current;
    const store = usePlayground.getState();
    if (store.status === "running" || store.status === "stopping") return null;
    // Null while the records planned are another transcript's (just switched, not yet rendered).
    const source = open();
    if (source === null) return null;
    const openedFor = store.transcriptId;
    const ours = () => usePlayground.getState().transcriptId === openedFor;
    const { showReplayLog } = store;
    // Frames fold here, not in the store: a seek back starts from the nearest checkpoint.
    const fold = new ReplayFold(openedFor);
    const created: ReplaySession = new ReplaySession({
      source,
      speed: speed.current,
      begin: () => {
        if (ours()) showReplayLog(fold.begin(), true);
      },
      show: (frame) => {
        if (ours()) showReplayLog(fold.apply(frame), frame.reset);
      },
      changed: () => {
        if (session.current === created) setView({ engaged: true, ...created.view() });
      },
      failed: (text) => usePlayground.getState().notify({ text, tone: "danger" }),
    });
    session.current = created;
    return created;
  };

  // The playhead moves smoothly between records while playing.
  useEffect(() => {
    if (!view.playing) return;
    let frame = requestAnimationFrame(function follow() {
      const current = session.current?.view();
      if (current !== undefined)
        setView((shown) =>
          shown.position === current.position ? shown : { ...shown, ...current },
        );
      frame = requestAnimationFrame(follow);
    });
    return () => cancelAnimationFrame(frame);
  }, [view.playing]);

  const engaged = session.current;
  return {
    view,
    entries: engaged?.entries ?? resting.entries,
    diffs: engaged?.diffs ?? resting.diffs,
    play: () => engage()?.play(),
    pause: () => session.current?.pause(),
    stepForward: (unit) => engage()?.stepForward(unit),
    stepBack: (unit) => engage()?.stepBack(unit),
    seek: (position) => engage()?.seek(position),
    setSpeed(next) {
      speed.current = next;
      if (session.current !== null) session.current.setSpeed(next);
      else setView((current) => ({ ...current, speed: next }));
    },
    exit() {
      dispose();
      showStored();
      setView(restingView(resting, speed.current));
    },
  };
}

/** The log shows the stored transcript again, as loaded (no replay). */
function showStored(): void {
  const store = usePlayground.getState();
  if (store.transcript !== null) store.showRecords(store.transcript.records, true, false);
}
