import { describe, expect, it } from "vitest";
import type { ResultStatus } from "../protocol/events";
import { failuresInARow } from "./breaker";

const run = (statuses: ResultStatus[]) => {
  const counts: number[] = [];
  let count = 0;
  for (const status of statuses) {
    count = failuresInARow(count, status);
    counts.push(count);
  }
  return counts;
};

describe("failuresInARow", () => {
  it("counts failures in a row", () => {
    expect(run(["failure", "failure", "failure"])).toEqual([1, 2, 3]);
  });

  it("starts again after a success", () => {
    expect(run(["failure", "success", "failure", "success", "failure"])).toEqual([1, 0, 1, 0, 1]);
    expect(run(["failure", "failure", "success", "failure", "failure"])).toEqual([1, 2, 0, 1, 2]);
  });

  it("neither counts nor resets on a skipped result", () => {
    expect(run(["skipped", "skipped"])).toEqual([0, 0]);
    expect(run(["failure", "skipped", "failure", "skipped", "failure"])).toEqual([1, 1, 2, 2, 3]);
    expect(run(["failure", "skipped", "success", "failure"])).toEqual([1, 1, 0, 1]);
  });
});
