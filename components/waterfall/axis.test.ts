import { describe, expect, it } from "vitest";
import { MIN_BREAK_MS, timeAxis } from "./axis";
import { formatGap } from "./time-scale";

const DAY = 86_400_000;

describe("timeAxis", () => {
  it("is to scale when nothing is idle for long", () => {
    const axis = timeAxis(
      [
        { start: 0, end: 1_000 },
        { start: 1_200, end: 2_000 },
      ],
      0,
      2_000,
    );
    expect(axis.breaks).toEqual([]);
    expect(axis.shownMs).toBe(2_000);
    expect([0, 500, 1_100, 2_000].map(axis.at)).toEqual([0, 0.25, 0.55, 1]);
  });

  it("cuts the days between a fork's copied records and its continuation", () => {
    const axis = timeAxis(
      [
        { start: 0, end: 1_000 },
        { start: 2 * DAY, end: 2 * DAY + 1_000 },
      ],
      0,
      2 * DAY + 1_000,
    );
    expect(axis.shownMs).toBe(2_000);
    expect(axis.breaks).toHaveLength(1);
    const [cut] = axis.breaks;
    expect(cut?.cutMs).toBe(2 * DAY - 1_000);
    expect((cut?.to ?? 0) - (cut?.from ?? 0)).toBeCloseTo(0.04, 10);
    // Each run keeps its share of the rest: both are readable.
    expect(axis.at(1_000)).toBeCloseTo(0.48, 10);
    expect(axis.at(2 * DAY)).toBeCloseTo(0.52, 10);
    expect(axis.at(2 * DAY + 1_000)).toBe(1);
  });

  it("keeps short pauses, and pauses short next to the bars' own time, to scale", () => {
    const short = timeAxis(
      [
        { start: 0, end: 100 },
        { start: MIN_BREAK_MS - 1, end: MIN_BREAK_MS + 100 },
      ],
      0,
      MIN_BREAK_MS + 100,
    );
    expect(short.breaks).toEqual([]);
    // 10 s idle next to two minutes of work: under a quarter of it.
    const long = timeAxis(
      [
        { start: 0, end: 60_000 },
        { start: 70_000, end: 130_000 },
      ],
      0,
      130_000,
    );
    expect(long.breaks).toEqual([]);
  });

  it("joins overlapping bars, cuts every long gap, and stays in order across them", () => {
    const bars = [
      { start: 0, end: 500 },
      { start: 200, end: 1_000 },
      { start: 60_000, end: 61_000 },
      { start: DAY, end: DAY + 1_000 },
    ];
    const axis = timeAxis(bars, 0, DAY + 1_000);
    expect(axis.breaks.map((cut) => cut.cutMs)).toEqual([59_000, DAY - 61_000]);
    expect(axis.shownMs).toBe(3_000);
    const samples = [0, 500, 1_000, 30_000, 59_999, 60_000, 61_000, DAY / 2, DAY, DAY + 1_000];
    const positions = samples.map(axis.at);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(new Set(positions).size).toBe(positions.length);
  });

  it("leaves the time after the last bar (a run still going) to scale", () => {
    const axis = timeAxis([{ start: 0, end: 1_000 }], 0, 60_000);
    expect(axis.breaks).toEqual([]);
    expect(axis.at(1_000)).toBeCloseTo(1 / 60, 10);
  });
});

describe("formatGap", () => {
  it("gives the two largest units", () => {
    expect(formatGap(8_400)).toBe("8 s");
    expect(formatGap(12 * 60_000 + 5_000)).toBe("12 min 5 s");
    expect(formatGap(3 * 3_600_000 + 20 * 60_000 + 9_000)).toBe("3 h 20 min");
    expect(formatGap(2 * DAY + 4 * 3_600_000)).toBe("2 d 4 h");
    expect(formatGap(DAY)).toBe("1 d");
  });
});
