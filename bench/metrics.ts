import os from "node:os";
import { mergePrices } from "../lib/cost";
import { summarizeRecords } from "../lib/metrics";
import { largeTranscript } from "../lib/transcripts/testing";

/**
 * `npx tsx bench/metrics.ts`: how long `summarizeRecords` takes on long transcripts. The run
 * summary header recomputes it once per animation frame while a run streams, so a frame's
 * budget (16 ms) is the figure to compare with. Prints medians; asserts nothing.
 */
const SIZES = [1_000, 10_000, 100_000];
const prices = mergePrices();

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

console.log(
  `summarizeRecords, node ${process.version}, ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(" ")}`,
);
for (const size of SIZES) {
  const { records } = largeTranscript(size);
  for (let warm = 0; warm < 3; warm++) summarizeRecords(records, { prices });
  const times: number[] = [];
  let turns = 0;
  for (let run = 0; run < 15; run++) {
    const started = performance.now();
    turns = summarizeRecords(records, { prices }).turns;
    times.push(performance.now() - started);
  }
  const ms = median(times);
  console.log(
    `${records.length.toLocaleString("en-US").padStart(8)} records, ${turns} turns: median ${ms.toFixed(2)} ms (${((records.length / ms) * 1000).toFixed(0)} records/s)`,
  );
}
