import { describe, expect, it } from "vitest";
import { formatReplayTime, parseSpeed, SPEED_OPTIONS, speedLabel } from "./speeds";

describe("replay speeds", () => {
  it("offers 0.25× to 16× and Instant", () => {
    expect(SPEED_OPTIONS.map((option) => option.label)).toEqual([
      "0.25×",
      "0.5×",
      "1×",
      "2×",
      "4×",
      "8×",
      "16×",
      "Instant",
    ]);
  });

  it("maps select values back to speeds, and nothing else", () => {
    for (const option of SPEED_OPTIONS)
      expect(speedLabel(parseSpeed(option.value) ?? 0)).toBe(option.label);
    expect(parseSpeed("instant")).toBe("instant");
    expect(parseSpeed("0.25")).toBe(0.25);
    expect(parseSpeed("3")).toBeUndefined();
    expect(parseSpeed("")).toBeUndefined();
  });
});

describe("formatReplayTime", () => {
  it("shows minutes, seconds and tenths", () => {
    expect(formatReplayTime(0)).toBe("0:00.0");
    expect(formatReplayTime(3_250)).toBe("0:03.2");
    expect(formatReplayTime(724_000)).toBe("12:04.0");
    expect(formatReplayTime(3_723_000)).toBe("1:02:03");
    expect(formatReplayTime(Number.NaN)).toBe("0:00.0");
  });
});
