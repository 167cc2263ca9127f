export interface Interval {
  start: number;
  end: number;
}

/** The length of time the intervals cover together: overlapping parts count once. */
export function coveredMs(intervals: readonly Interval[]): number {
  const sorted = [...intervals].sort((a, b) => a.start - b.start);
  let total = 0;
  let start = Number.NEGATIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const interval of sorted) {
    if (interval.start > end) {
      if (end > start) total += end - start;
      start = interval.start;
      end = interval.end;
    } else if (interval.end > end) {
      end = interval.end;
    }
  }
  if (end > start) total += end - start;
  return total;
}
