import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { createReplayClock, type ReplayClockState } from "./clock";
import type { ReplayFrame } from "./cursor";
import type { TimedRecord } from "./timeline";
import { fakeTimerHost } from "./timer-host.testing";

const chunk = (text: string, t: number): TranscriptRecord => ({ kind: "chunk", turn: 0, t, text });
const event = (id: string): TranscriptRecord => ({
  kind: "event",
  event: {
    type: "metric",
    id,
    timestamp: 0,
    step: { input: 0, output: 0, durationMs: 0, ttftMs: 0 },
    total: { input: 0, output: 0, durationMs: 0 },
  },
});

/** a@0 b@10 E1@10 c@30 E2@100 */
const ENTRIES: TimedRecord[] = [
  { at: 0, record: chunk("a", 0) },
  { at: 10, record: chunk("b", 10) },
  { at: 10, record: event("E1") },
  { at: 30, record: chunk("c", 30) },
  { at: 100, record: event("E2") },
];

const nameOf = (record: TranscriptRecord) =>
  record.kind === "chunk" ? record.text : record.kind === "event" ? record.event.id : "request";

function setup(speed?: number | "instant", entries = ENTRIES, complete?: boolean) {
  const host = fakeTimerHost();
  const frames: { reset: boolean; names: string[]; state: ReplayClockState }[] = [];
  /** What a view folding the frames shows. */
  let shown: string[] = [];
  const clock = createReplayClock({
    entries,
    host,
    ...(speed === undefined ? {} : { speed }),
    ...(complete === undefined ? {} : { complete }),
    onFrame(frame: ReplayFrame, state) {
      const names = frame.records.map(nameOf);
      shown = frame.reset ? names : [...shown, ...names];
      frames.push({ reset: frame.reset, names, state });
    },
  });
  return { host, clock, frames, shown: () => shown };
}

describe("replay clock", () => {
  it("emits records at their recorded pace at 1×", () => {
    const { host, clock, shown } = setup();
    clock.play();
    expect(shown()).toEqual(["a"]);
    host.advance(9);
    expect(shown()).toEqual(["a"]);
    host.advance(1);
    expect(shown()).toEqual(["a", "b", "E1"]);
    host.advance(20);
    expect(shown()).toEqual(["a", "b", "E1", "c"]);
    host.advance(69);
    expect(clock.state()).toMatchObject({ playing: true, position: 99, index: 4 });
    host.advance(1);
    expect(shown()).toEqual(["a", "b", "E1", "c", "E2"]);
    expect(clock.state()).toMatchObject({ playing: false, position: 100, index: 5 });
    expect(host.pending()).toBe(0);
  });

  it.each([
    [4, 25],
    [16, 7],
    [0.25, 400],
  ])("at %s× a 100 ms run takes %s ms", (speed, wall) => {
    const { host, clock, shown } = setup(speed);
    clock.play();
    host.advance(wall - 1);
    expect(shown()).not.toContain("E2");
    host.advance(1);
    expect(shown()).toContain("E2");
    expect(clock.state().playing).toBe(false);
  });

  it("instant emits everything at once", () => {
    const { clock, frames, shown } = setup("instant");
    clock.play();
    expect(shown()).toEqual(["a", "b", "E1", "c", "E2"]);
    expect(frames.at(-1)?.state.playing).toBe(false);
  });

  it("pauses and resumes where it was; changing speed while playing keeps the position", () => {
    const { host, clock, shown } = setup();
    clock.play();
    host.advance(20);
    clock.pause();
    expect(clock.state()).toMatchObject({ playing: false, position: 20 });
    host.advance(1000);
    expect(shown()).toEqual(["a", "b", "E1"]);
    clock.play();
    host.advance(10);
    expect(shown()).toEqual(["a", "b", "E1", "c"]);
    clock.setSpeed(2); // at 30; E2 is 70 ms of timeline away = 35 ms
    host.advance(34);
    expect(shown()).not.toContain("E2");
    host.advance(1);
    expect(shown()).toContain("E2");
  });

  it("steps forward by event and back by rebuilding up to just before the last event", () => {
    const { clock, frames, shown } = setup();
    clock.stepForward();
    expect(shown()).toEqual(["a", "b", "E1"]);
    clock.stepForward();
    expect(shown()).toEqual(["a", "b", "E1", "c", "E2"]);
    clock.stepBack();
    expect(frames.at(-1)?.reset).toBe(true);
    expect(shown()).toEqual(["a", "b", "E1", "c"]);
    clock.stepBack();
    expect(shown()).toEqual(["a", "b"]);
    expect(clock.state()).toMatchObject({ index: 2, position: 10 });
    clock.stepForward();
    expect(shown()).toEqual(["a", "b", "E1"]);
    clock.stepBack();
    clock.stepBack();
    expect(shown()).toEqual([]);
  });

  it("steps pause playback", () => {
    const { host, clock } = setup();
    clock.play();
    host.advance(5);
    clock.stepForward();
    expect(clock.state()).toMatchObject({ playing: false, index: 3 });
    host.advance(1000);
    expect(clock.state().index).toBe(3);
  });

  it("seeks forward by emitting what is due, backward by rebuilding, and keeps playing", () => {
    const { host, clock, frames, shown } = setup();
    clock.seek(30);
    expect(shown()).toEqual(["a", "b", "E1", "c"]);
    expect(frames.at(-1)?.reset).toBe(false);
    clock.seek(5);
    expect(frames.at(-1)?.reset).toBe(true);
    expect(shown()).toEqual(["a"]);
    clock.play();
    clock.seek(50);
    expect(shown()).toEqual(["a", "b", "E1", "c"]);
    host.advance(50);
    expect(shown()).toEqual(["a", "b", "E1", "c", "E2"]);
    clock.seek(-10);
    expect(shown()).toEqual(["a"]);
  });

  it("plays again from the start once at the end", () => {
    const { clock, shown } = setup("instant");
    clock.play();
    clock.play();
    expect(shown()).toEqual(["a", "b", "E1", "c", "E2"]);
    expect(clock.state().index).toBe(5);
  });

  it("refuses a speed out of range", () => {
    const { clock } = setup();
    expect(() => clock.setSpeed(32)).toThrow(/0.25 to 16/);
    expect(() => clock.setSpeed(0)).toThrow(RangeError);
  });

  it("waits at the end of what it has while more is to come, then goes on from there", () => {
    const { host, clock, shown } = setup(1, ENTRIES.slice(0, 3), false);
    clock.play();
    host.advance(500);
    expect(shown()).toEqual(["a", "b", "E1"]);
    // Still playing, time held at the last entry: waiting, not finished.
    expect(clock.state()).toMatchObject({ playing: true, waiting: true, position: 10 });
    clock.extend(ENTRIES.slice(3, 4), false);
    // c is due 20 ms after E1, counted from now (the wait does not count).
    host.advance(19);
    expect(shown()).toEqual(["a", "b", "E1"]);
    host.advance(1);
    expect(shown()).toEqual(["a", "b", "E1", "c"]);
    clock.extend(ENTRIES.slice(4), true);
    host.advance(70);
    expect(shown()).toEqual(["a", "b", "E1", "c", "E2"]);
    expect(clock.state()).toMatchObject({ playing: false, waiting: false, complete: true });
  });

  it("at instant speed shows each addition at once, and stops only at the last", () => {
    const { clock, shown } = setup("instant", ENTRIES.slice(0, 2), false);
    clock.play();
    expect(shown()).toEqual(["a", "b"]);
    expect(clock.state().waiting).toBe(true);
    clock.extend(ENTRIES.slice(2, 4), false);
    expect(shown()).toEqual(["a", "b", "E1", "c"]);
    clock.extend(ENTRIES.slice(4), true);
    expect(shown()).toEqual(["a", "b", "E1", "c", "E2"]);
    expect(clock.state().playing).toBe(false);
  });

  it("paused, an addition only grows what can be played", () => {
    const { clock, frames, shown } = setup(1, ENTRIES.slice(0, 2), false);
    clock.stepForward();
    const before = frames.length;
    clock.extend(ENTRIES.slice(2), true);
    expect(frames.length).toBe(before + 1);
    expect(frames.at(-1)?.state).toMatchObject({ playing: false, length: 5, complete: true });
    expect(shown()).toEqual(["a", "b"]);
    clock.stepForward();
    expect(shown()).toEqual(["a", "b", "E1"]);
  });
});
