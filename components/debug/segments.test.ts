import { describe, expect, it } from "vitest";
import { buildSegments } from "./segments";

describe("buildSegments", () => {
  it("cuts at runs and decorations; the innermost highlight shows", () => {
    const runs = [{ start: 0, end: 4, color: "a", fontStyle: 0 }];
    const segments = buildSegments(0, 10, runs, [
      { kind: "highlight", start: 2, end: 10, highlight: "selected" },
      { kind: "highlight", start: 3, end: 6, highlight: "hover" },
      { kind: "error", start: 5, end: 8, title: "e" },
    ]);
    expect(
      segments.map((segment) => [
        segment.start,
        segment.end,
        segment.color,
        segment.highlight,
        segment.errors,
      ]),
    ).toEqual([
      [0, 2, "a", undefined, undefined],
      [2, 3, "a", "selected", undefined],
      [3, 4, "a", "hover", undefined],
      [4, 5, "", "hover", undefined],
      [5, 6, "", "hover", ["e"]],
      [6, 8, "", "selected", ["e"]],
      [8, 10, "", "selected", undefined],
    ]);
  });
});
