/** Throughput unit: 1 MB = 1e6 UTF-16 code units (JavaScript string length), not bytes. */
export const MB = 1e6;

export interface Timing {
  /** Median wall time of the measured runs, in ms. */
  medianMs: number;
  /** Fastest and slowest measured run, in ms: the spread shows how noisy the machine was. */
  minMs: number;
  maxMs: number;
  runs: number;
  /** Whatever the run returned (an event count), so the work cannot be optimised away. */
  checksum: number;
}

export interface TimingOptions {
  warmup?: number;
  runs?: number;
  /** Fewer runs (never below 3) when one warm run takes longer than this, in ms. */
  slowRunMs?: number;
}

/** Warm-up runs, then the median of the measured runs. `run` returns a count it consumed. */
export async function measure(
  run: () => number | Promise<number>,
  { warmup = 2, runs = 9, slowRunMs = 1500 }: TimingOptions = {},
): Promise<Timing> {
  let checksum = 0;
  let last = 0;
  for (let i = 0; i < warmup; i++) {
    const start = performance.now();
    checksum = await run();
    last = performance.now() - start;
  }
  const count = last > slowRunMs ? Math.min(runs, 3) : runs;
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const result = await run();
    times.push(performance.now() - start);
    if (result !== checksum && warmup > 0) {
      throw new Error(
        `Benchmark run gave ${result}, the warm-up gave ${checksum}: not deterministic.`,
      );
    }
    checksum = result;
  }
  return {
    medianMs: median(times),
    minMs: Math.min(...times),
    maxMs: Math.max(...times),
    runs: count,
    checksum,
  };
}

/**
 * Several contenders timed in alternation (one run of each per round, after `warmup`
 * rounds, the starting one rotating), so a burst of load from elsewhere on a shared machine hits them all alike
 * instead of skewing the comparison. Returns one timing per contender, in order.
 */
export async function measureInterleaved(
  contenders: readonly (() => number | Promise<number>)[],
  { warmup = 2, runs = 7 }: Omit<TimingOptions, "slowRunMs"> = {},
): Promise<Timing[]> {
  const times: number[][] = contenders.map(() => []);
  const checksums: number[] = contenders.map(() => 0);
  for (let round = 0; round < warmup + runs; round++) {
    // Rotating who goes first spreads the garbage one run leaves to the next one evenly.
    for (let turn = 0; turn < contenders.length; turn++) {
      const index = (round + turn) % contenders.length;
      const run = contenders[index] as () => number | Promise<number>;
      const start = performance.now();
      checksums[index] = await run();
      if (round >= warmup) times[index]?.push(performance.now() - start);
    }
  }
  return times.map((list, index) => ({
    medianMs: median(list),
    minMs: Math.min(...list),
    maxMs: Math.max(...list),
    runs: list.length,
    checksum: checksums[index] ?? 0,
  }));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const high = sorted[mid] ?? 0;
  return sorted.length % 2 === 1 ? high : ((sorted[mid - 1] ?? 0) + high) / 2;
}

export function throughput(length: number, ms: number): number {
  return length / MB / (ms / 1000);
}

/** The text cut into chunks of `size` characters (`Infinity`: one chunk). Cut before timing. */
export function chunked(text: string, size: number): string[] {
  if (!Number.isFinite(size) || size >= text.length) return [text];
  const chunks: string[] = [];
  for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
  return chunks;
}
