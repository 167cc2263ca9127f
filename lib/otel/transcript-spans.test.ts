import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { spanBatches } from "./transcript-spans";

/** Runs of `sizes` spans (stand-ins: batching only counts them). */
async function* runs(sizes: number[]): AsyncGenerator<ReadableSpan[]> {
  let next = 0;
  for (const size of sizes)
    yield Array.from({ length: size }, () => ({ name: `${next++}` }) as unknown as ReadableSpan);
}

async function batchSizes(sizes: number[], max: number): Promise<number[]> {
  const out: number[] = [];
  for await (const batch of spanBatches(runs(sizes), max)) out.push(batch.length);
  return out;
}

describe("spanBatches", () => {
  it("sends whole runs, several to a request up to the limit, a longer run alone", async () => {
    expect(await batchSizes([2, 3, 4, 1], 5)).toEqual([5, 5]);
    expect(await batchSizes([2, 9, 1], 5)).toEqual([2, 9, 1]);
    expect(await batchSizes([], 5)).toEqual([]);
    expect(await batchSizes([0, 0, 3], 5)).toEqual([3]);
  });

  it("keeps the spans in order", async () => {
    const names: string[] = [];
    for await (const batch of spanBatches(runs([2, 3, 4]), 4))
      names.push(...batch.map((span) => span.name));
    expect(names).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8"]);
  });
});
