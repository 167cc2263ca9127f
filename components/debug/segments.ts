import type { Run } from "./wire-runs";

export type HighlightKind = "hover" | "selected";

/** Something drawn over the raw text: the linked event's span or an error span. */
export type Decoration =
  | { kind: "highlight"; start: number; end: number; highlight: HighlightKind }
  | { kind: "error"; start: number; end: number; title: string };

/** A stretch of one line with one look: the unit the raw view renders as one element. */
export interface Segment {
  start: number;
  end: number;
  color: string;
  fontStyle: number;
  highlight?: HighlightKind;
  /** Titles of the error spans covering this stretch. */
  errors?: string[];
}

/**
 * Cuts [start, end) at every run and decoration boundary. Where highlights overlap, the
 * innermost (shortest) one is the one shown, so a call inside its execute block stays visible.
 */
export function buildSegments(
  start: number,
  end: number,
  runs: readonly Run[] | undefined,
  decorations: readonly Decoration[],
): Segment[] {
  const cuts = new Set<number>([start, end]);
  for (const run of runs ?? []) {
    if (run.start > start && run.start < end) cuts.add(run.start);
    if (run.end > start && run.end < end) cuts.add(run.end);
  }
  for (const decoration of decorations) {
    if (decoration.start > start && decoration.start < end) cuts.add(decoration.start);
    if (decoration.end > start && decoration.end < end) cuts.add(decoration.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const segments: Segment[] = [];
  let runIndex = 0;
  for (let index = 0; index + 1 < points.length; index++) {
    const from = points[index] as number;
    const to = points[index + 1] as number;
    while (runs !== undefined && runIndex < runs.length && (runs[runIndex]?.end ?? 0) <= from)
      runIndex++;
    const run = runs?.[runIndex];
    const segment: Segment = {
      start: from,
      end: to,
      color: run !== undefined && run.start <= from ? run.color : "",
      fontStyle: run !== undefined && run.start <= from ? run.fontStyle : 0,
    };
    let innermost = Number.POSITIVE_INFINITY;
    for (const decoration of decorations) {
      if (decoration.start > from || decoration.end < to) continue;
      if (decoration.kind === "error")
        segment.errors = [...(segment.errors ?? []), decoration.title];
      else if (decoration.end - decoration.start < innermost) {
        innermost = decoration.end - decoration.start;
        segment.highlight = decoration.highlight;
      }
    }
    segments.push(segment);
  }
  return segments;
}

export function sameDecorations(a: readonly Decoration[], b: readonly Decoration[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((decoration, index) => {
    const other = b[index];
    return (
      other !== undefined &&
      other.kind === decoration.kind &&
      other.start === decoration.start &&
      other.end === decoration.end &&
      (decoration.kind === "error"
        ? other.kind === "error" && other.title === decoration.title
        : other.kind === "highlight" && other.highlight === decoration.highlight)
    );
  });
}
