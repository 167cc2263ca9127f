/**
 * The largest token count believed from outside (a provider's usage, an imported metric): a
 * trillion, far past any real call, and small enough that a transcript's sums stay exact
 * integers (`Number.MAX_SAFE_INTEGER` is 9,000 times it).
 */
export const MAX_TOKEN_COUNT = 1_000_000_000_000;

/** A whole number of tokens in 0…`MAX_TOKEN_COUNT`, or undefined. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === "number" &&
    Number.isInteger(value) &&
    value >= 0 &&
    value <= MAX_TOKEN_COUNT
    ? value
    : undefined;
}

/** The prompt-cache parts of an input count (`TokenStep`'s). */
export interface CacheParts {
  cacheRead?: number;
  cacheWrite?: number;
  /** Of `cacheWrite`, written to a 1-hour cache. */
  cacheWrite1h?: number;
}

/**
 * The prompt-cache parts of an `input` count, cut to fit inside it (a provider or a file that
 * says more was cached than was sent is not believed past the input): reads first, then writes,
 * and of the writes the 1-hour ones (only with a write count: they are a part of it).
 */
export function cacheParts(
  input: number,
  cacheRead: number | undefined,
  cacheWrite: number | undefined,
  cacheWrite1h?: number,
): CacheParts {
  const parts: CacheParts = {};
  let left = Math.max(0, input);
  if (cacheRead !== undefined) {
    parts.cacheRead = Math.min(cacheRead, left);
    left -= parts.cacheRead;
  }
  if (cacheWrite !== undefined) {
    parts.cacheWrite = Math.min(cacheWrite, left);
    if (cacheWrite1h !== undefined) parts.cacheWrite1h = Math.min(cacheWrite1h, parts.cacheWrite);
  }
  return parts;
}
