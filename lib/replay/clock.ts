import { ReplayCursor, type ReplayFrame, type StepUnit } from "./cursor";
import type { TimedRecord } from "./timeline";

export type ReplaySpeed = number | "instant";
export const REPLAY_SPEEDS: readonly ReplaySpeed[] = [0.25, 0.5, 1, 2, 4, 8, 16, "instant"];
export const MIN_SPEED = 0.25;
export const MAX_SPEED = 16;

/** Time and timers, injected: the browser's by default, a fake one in tests. */
export interface TimerHost {
  /** ms, monotonic. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: TimerHost = {
  now: () => performance.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ReplayClockState {
  playing: boolean;
  speed: ReplaySpeed;
  /** ms on the timeline, moving while playing. */
  position: number;
  /** Records emitted so far, of `length`. */
  index: number;
  length: number;
  duration: number;
  /** Every entry is here; false while a long transcript is still being read (`extend`). */
  complete: boolean;
  /** Playing, but at the end of the entries here: it goes on when `extend` brings more. */
  waiting: boolean;
}

export interface ReplayClockOptions {
  entries: readonly TimedRecord[];
  /** Called after every operation and every timer tick (frames may be empty). */
  onFrame: (frame: ReplayFrame, state: ReplayClockState) => void;
  host?: TimerHost;
  speed?: ReplaySpeed;
  /** False when more entries will come (`extend`); default true. */
  complete?: boolean;
}

export interface ReplayClock {
  /** Plays from the current position (from the start again when at the end). */
  play(): void;
  pause(): void;
  setSpeed(speed: ReplaySpeed): void;
  /** Pauses, then emits up to and including the next event (or piece of one). */
  stepForward(unit?: StepUnit): void;
  /** Pauses, then rebuilds up to just before the last emitted event (or piece of one). */
  stepBack(unit?: StepUnit): void;
  /** Jumps to `position` ms; keeps playing if it was. */
  seek(position: number): void;
  /**
   * Adds entries after the last one, and says whether they are the last: playback waiting at
   * the end of what was here goes on from where it stopped, as if they had been there.
   */
  extend(entries: readonly TimedRecord[], complete: boolean): void;
  state(): ReplayClockState;
  /** Stops the timer for good. */
  dispose(): void;
}

/**
 * The timer adapter around `ReplayCursor`: while playing, one timer at a time, set for when the
 * next record is due at the current speed; the position is computed from the host's clock, so a
 * late timer catches up instead of drifting. "instant" emits everything at once.
 */
export function createReplayClock(options: ReplayClockOptions): ReplayClock {
  const cursor = new ReplayCursor(options.entries);
  const host = options.host ?? systemTimers;
  let speed = checkSpeed(options.speed ?? 1);
  let complete = options.complete ?? true;
  let playing = false;
  let anchorWall = 0;
  let anchorPosition = 0;
  let timer: unknown;

  const livePosition = () =>
    playing && speed !== "instant"
      ? Math.min(cursor.duration, anchorPosition + (host.now() - anchorWall) * speed)
      : cursor.position;
  const state = (): ReplayClockState => ({
    playing,
    speed,
    position: livePosition(),
    index: cursor.index,
    length: cursor.length,
    duration: cursor.duration,
    complete,
    waiting: playing && cursor.done && !complete,
  });
  const emit = (frame: ReplayFrame) => options.onFrame(frame, state());
  const clear = () => {
    if (timer !== undefined) host.clearTimeout(timer);
    timer = undefined;
  };
  const anchor = () => {
    anchorWall = host.now();
    anchorPosition = cursor.position;
  };
  const schedule = () => {
    clear();
    const next = cursor.nextAt();
    // At the end of what is here, more to come: wait for `extend`, still playing.
    if (next === undefined && !complete) return;
    if (next === undefined || speed === "instant") {
      playing = false;
      return;
    }
    // Rounded up: when the timer fires, the next record is due.
    timer = host.setTimeout(tick, Math.max(0, Math.ceil((next - cursor.position) / speed)));
  };
  const tick = () => {
    timer = undefined;
    const frame = cursor.advanceTo(speed === "instant" ? cursor.duration : livePosition());
    if (cursor.done && complete) playing = false;
    if (playing) schedule();
    emit(frame);
  };
  const stop = (): ReplayFrame => {
    const frame = playing ? cursor.advanceTo(livePosition()) : { reset: false, records: [] };
    playing = false;
    clear();
    return frame;
  };

  return {
    play() {
      if (playing) return;
      if (cursor.done && complete && cursor.length > 0) emit(cursor.seek(0));
      playing = true;
      anchor();
      tick();
    },
    pause() {
      if (playing) emit(stop());
    },
    setSpeed(next) {
      const checked = checkSpeed(next);
      if (!playing) {
        speed = checked;
        emit({ reset: false, records: [] });
        return;
      }
      const frame = cursor.advanceTo(livePosition());
      speed = checked;
      anchor();
      emit(frame);
      tick();
    },
    stepForward(unit) {
      const paused = stop();
      if (paused.records.length > 0) emit(paused);
      emit(cursor.stepForward(unit));
    },
    stepBack(unit) {
      stop();
      emit(cursor.stepBack(unit));
    },
    seek(position) {
      const wasPlaying = playing;
      const paused = stop();
      if (paused.records.length > 0) emit(paused);
      const frame = cursor.seek(position);
      playing = wasPlaying && !(cursor.done && complete);
      if (playing) {
        anchor();
        schedule();
      }
      emit(frame);
    },
    extend(entries, last) {
      const waiting = playing && cursor.done;
      cursor.append(entries);
      complete = last;
      if (waiting) {
        // Time stood still at the old end: go on from there, not from where the wall clock is.
        anchor();
        tick();
      } else if (playing && timer === undefined) schedule();
      else emit({ reset: false, records: [] });
    },
    state,
    dispose() {
      playing = false;
      clear();
    },
  };
}

function checkSpeed(speed: ReplaySpeed): ReplaySpeed {
  if (speed === "instant" || (speed >= MIN_SPEED && speed <= MAX_SPEED)) return speed;
  throw new RangeError(
    `Replay speed ${speed} is out of range: use ${MIN_SPEED} to ${MAX_SPEED}, or "instant".`,
  );
}
