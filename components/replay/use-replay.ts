"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { createReplayClock, type ReplayClock, type ReplaySpeed } from "@/lib/replay/clock";
import type { StepUnit } from "@/lib/replay/cursor";
import { usePlayground } from "@/state/playground-store";
import type { ReplayPlan } from "./replay-plan";

export interface ReplayView {
  /** The log shows the replay; false: it shows the stored transcript, all of it. */
  engaged: boolean;
  playing: boolean;
  speed: ReplaySpeed;
  /** ms on the replay's clock. */
  position: number;
  /** Records shown, of the plan's entries. */
  index: number;
}

export interface ReplayControls {
  view: ReplayView;
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

const restingView = (plan: ReplayPlan | null, speed: ReplaySpeed): ReplayView => ({
  engaged: false,
  playing: false,
  speed,
  position: plan?.duration ?? 0,
  index: plan?.entries.length ?? 0,
});

/**
 * Plays a replay plan into the store's log through the replay clock: frames fold into the log
 * (a fresh one on `reset`), so the timeline and debug panel rebuild as they did live. The clock
 * starts on the first control used; a run that starts stops it at once.
 */
export function useReplay(plan: ReplayPlan | null): ReplayControls {
  const clock = useRef<ReplayClock | null>(null);
  const speed = useRef<ReplaySpeed>(1);
  const [view, setView] = useState<ReplayView>(() => restingView(plan, speed.current));

  const dispose = useCallback(() => {
    clock.current?.dispose();
    clock.current = null;
  }, []);

  useEffect(() => {
    setView(restingView(plan, speed.current));
    return dispose;
  }, [plan, dispose]);

  // Synchronous: no replay frame may land in a live run's log.
  useEffect(
    () =>
      usePlayground.subscribe((state, previous) => {
        if (state.status === "running" && previous.status !== "running" && clock.current) {
          dispose();
          setView(restingView(plan, speed.current));
        }
      }),
    [plan, dispose],
  );

  const engage = (): ReplayClock | null => {
    if (clock.current !== null) return clock.current;
    const store = usePlayground.getState();
    if (plan === null || store.status === "running" || store.status === "stopping") return null;
    store.showRecords([], true);
    clock.current = createReplayClock({
      entries: plan.entries,
      speed: speed.current,
      onFrame(frame, state) {
        if (frame.reset || frame.records.length > 0)
          usePlayground.getState().showRecords(frame.records, frame.reset);
        setView({ engaged: true, ...state });
      },
    });
    return clock.current;
  };

  // The playhead moves smoothly between records while playing.
  useEffect(() => {
    if (!view.playing) return;
    let frame = requestAnimationFrame(function follow() {
      const state = clock.current?.state();
      if (state !== undefined) setView((current) => ({ ...current, position: state.position }));
      frame = requestAnimationFrame(follow);
    });
    return () => cancelAnimationFrame(frame);
  }, [view.playing]);

  return {
    view,
    play: () => engage()?.play(),
    pause: () => clock.current?.pause(),
    stepForward: (unit) => engage()?.stepForward(unit),
    stepBack(unit) {
      const fresh = clock.current === null;
      const replay = engage();
      // From the whole transcript: show it all (re-parsed), then take the last event back.
      if (fresh && plan !== null) replay?.seek(plan.duration);
      replay?.stepBack(unit);
    },
    seek: (position) => engage()?.seek(position),
    setSpeed(next) {
      speed.current = next;
      if (clock.current !== null) clock.current.setSpeed(next);
      else setView((current) => ({ ...current, speed: next }));
    },
    exit() {
      dispose();
      const store = usePlayground.getState();
      if (store.transcript !== null) store.showRecords(store.transcript.records, true, false);
      setView(restingView(plan, speed.current));
    },
  };
}
