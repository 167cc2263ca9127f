/** A span of time a bar covers, in ms since the epoch. */
export interface Interval {
  start: number;
  end: number;
}

/** Idle time cut out of the axis, drawn as a narrow break mark. */
export interface AxisBreak {
  /** The break's left and right edges on the axis, 0–1. */
  from: number;
  to: number;
  /** The idle time it stands for, ms. */
  cutMs: number;
}

export interface TimeAxis {
  /** Where a moment falls on the axis, 0–1. */
  at(ms: number): number;
  breaks: AxisBreak[];
  /** The time the axis shows at its own scale: the span less the cut gaps, ms. */
  shownMs: number;
}

/** A gap shorter than this stays to scale: short pauses inside a run are worth seeing. */
export const MIN_BREAK_MS = 5_000;
/** …and a gap is cut only when longer than this share of the bars' own time. */
const BUSY_SHARE = 0.25;
/** The width of one break on the axis (less when there are many: together at most 30%). */
const BREAK_WIDTH = 0.04;
const ALL_BREAKS_WIDTH = 0.3;

/**
 * The time axis from `start` to `end` with the long idle gaps between bars cut out: a fork's
 * copied records and its continuation (days apart), or a pause before the next message. Each
 * cut gap keeps a narrow, fixed width so the break can be drawn; the rest is to scale. Gaps
 * count only between bars: the time after the last bar (a run still going) stays to scale.
 */
export function timeAxis(bars: readonly Interval[], start: number, end: number): TimeAxis {
  const merged = mergeIntervals(bars);
  const busyMs = merged.reduce((sum, bar) => sum + (bar.end - bar.start), 0);
  const threshold = Math.max(MIN_BREAK_MS, busyMs * BUSY_SHARE);
  const gaps: Interval[] = [];
  for (let index = 1; index < merged.length; index++) {
    const before = merged[index - 1];
    const after = merged[index];
    if (before === undefined || after === undefined) continue;
    if (after.start - before.end >= threshold) gaps.push({ start: before.end, end: after.start });
  }
  const spanMs = Math.max(1, end - start);
  const cutMs = gaps.reduce((sum, gap) => sum + (gap.end - gap.start), 0);
  const shownMs = Math.max(1, spanMs - cutMs);
  const share = gaps.length === 0 ? 0 : Math.min(BREAK_WIDTH, ALL_BREAKS_WIDTH / gaps.length);
  // Each break's width in axis ms, so that it takes `share` of the whole axis.
  const breakMs = (share * shownMs) / (1 - share * gaps.length);
  const totalMs = shownMs + breakMs * gaps.length;

  /** ms from `start` on the compressed axis. */
  const compressed = (ms: number) => {
    let offset = ms - start;
    for (const gap of gaps) {
      if (ms <= gap.start) break;
      const into = Math.min(ms, gap.end) - gap.start;
      offset -= into - (into / (gap.end - gap.start)) * breakMs;
    }
    return offset;
  };
  const at = (ms: number) => Math.min(1, Math.max(0, compressed(ms) / totalMs));
  return {
    at,
    breaks: gaps.map((gap) => ({
      from: at(gap.start),
      to: at(gap.end),
      cutMs: gap.end - gap.start,
    })),
    shownMs,
  };
}

/** Sorted, with overlapping and touching intervals joined. */
function mergeIntervals(bars: readonly Interval[]): Interval[] {
  const sorted = [...bars].sort((a, b) => a.start - b.start);
  const merged: Interval[] = [];
  for (const bar of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && bar.start <= last.end) last.end = Math.max(last.end, bar.end);
    else merged.push({ start: bar.start, end: Math.max(bar.start, bar.end) });
  }
  return merged;
}
