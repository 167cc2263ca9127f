import { type EditBudget, type EditOp, myers } from "./myers";

/** A half-open range of UTF-16 offsets. */
export interface Range {
  start: number;
  end: number;
}

/**
 * How two texts differ: the ranges of `a` that `b` lacks and the ranges of `b` that `a` lacks.
 * `mode` says how fine the marks are: `char` (a shortest character edit), `line` (whole lines:
 * the character diff was over its budget), `whole` (both texts marked: even the line diff was
 * over budget, the texts are too different to pair up), or `equal`.
 */
export interface TextDiff {
  mode: "equal" | "char" | "line" | "whole";
  a: Range[];
  b: Range[];
}

/** Enough for a few thousand changed characters in a long turn; a few ms of work. */
export const TEXT_BUDGET: EditBudget = { maxDistance: 2_000, maxWork: 1_000_000 };

/**
 * A character-level diff of `a` and `b` in bounded time and memory: the common prefix and
 * suffix are cut first (a fork's turns mostly share both), then Myers on characters; past
 * `budget` on lines; past that again, `whole`.
 */
export function diffText(a: string, b: string, budget: EditBudget = TEXT_BUDGET): TextDiff {
  if (a === b) return { mode: "equal", a: [], b: [] };
  let prefix = 0;
  const shorter = Math.min(a.length, b.length);
  while (prefix < shorter && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shorter - prefix &&
    a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix)
  )
    suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const chars = myers(
    midA.length,
    midB.length,
    (i, j) => midA.charCodeAt(i) === midB.charCodeAt(j),
    budget,
  );
  if (chars !== null) {
    const ranges = readableRanges(chars);
    return {
      mode: "char",
      a: wholeCharacters(shift(ranges.a, prefix), a),
      b: wholeCharacters(shift(ranges.b, prefix), b),
    };
  }
  // Whole lines: the common ends are cut back to line boundaries first.
  const lineStart = a.lastIndexOf("\n", prefix - 1) + 1;
  const newline = a.slice(a.length - suffix).indexOf("\n");
  const lineSuffix = newline === -1 ? 0 : suffix - newline - 1;
  const lines = diffLines(
    a.slice(lineStart, a.length - lineSuffix),
    b.slice(lineStart, b.length - lineSuffix),
    budget,
  );
  if (lines !== null)
    return { mode: "line", a: shift(lines.a, lineStart), b: shift(lines.b, lineStart) };
  return {
    mode: "whole",
    a: midA.length === 0 ? [] : [{ start: prefix, end: prefix + midA.length }],
    b: midB.length === 0 ? [] : [{ start: prefix, end: prefix + midB.length }],
  };
}

/**
 * The changed ranges of a character script, made readable: a short run of equal characters
 * between two changes (a stray "e" shared by two different words) is marked as changed too, so
 * a replaced phrase reads as one mark per side rather than a comb of one-letter ones.
 */
function readableRanges(ops: readonly EditOp[]): { a: Range[]; b: Range[] } {
  interface Hunk {
    a: Range;
    b: Range;
  }
  const hunks: Hunk[] = [];
  let open: Hunk | undefined;
  let x = 0;
  let y = 0;
  for (const op of ops) {
    if (op.op === "equal") {
      open = undefined;
      x = op.a + 1;
      y = op.b + 1;
      continue;
    }
    if (open === undefined) {
      open = { a: { start: x, end: x }, b: { start: y, end: y } };
      hunks.push(open);
    }
    if (op.op === "delete") x = open.a.end = op.a + 1;
    else y = open.b.end = op.b + 1;
  }
  const merged: Hunk[] = [];
  for (const hunk of hunks) {
    const last = merged.at(-1);
    const gap = last === undefined ? Number.POSITIVE_INFINITY : hunk.a.start - last.a.end;
    const size = (h: Hunk) => Math.max(h.a.end - h.a.start, h.b.end - h.b.start);
    if (last !== undefined && gap <= SHORT_EQUAL && gap <= size(last) + size(hunk)) {
      last.a.end = hunk.a.end;
      last.b.end = hunk.b.end;
    } else merged.push({ a: { ...hunk.a }, b: { ...hunk.b } });
  }
  const empty = (range: Range) => range.end === range.start;
  return {
    a: merged.map((hunk) => hunk.a).filter((range) => !empty(range)),
    b: merged.map((hunk) => hunk.b).filter((range) => !empty(range)),
  };
}

/** Equal runs up to this long between two larger changes join them (see `readableRanges`). */
const SHORT_EQUAL = 3;

/** Myers over lines (each line interned to a number), the ranges given in characters. */
function diffLines(a: string, b: string, budget: EditBudget): { a: Range[]; b: Range[] } | null {
  const ids = new Map<string, number>();
  const split = (text: string) => {
    const lines: { id: number; start: number; end: number }[] = [];
    let start = 0;
    while (start < text.length) {
      const newline = text.indexOf("\n", start);
      const end = newline === -1 ? text.length : newline + 1;
      const line = text.slice(start, end);
      let id = ids.get(line);
      if (id === undefined) {
        id = ids.size;
        ids.set(line, id);
      }
      lines.push({ id, start, end });
      start = end;
    }
    return lines;
  };
  const linesA = split(a);
  const linesB = split(b);
  const ops = myers(
    linesA.length,
    linesB.length,
    (i, j) => linesA[i]?.id === linesB[j]?.id,
    budget,
  );
  if (ops === null) return null;
  const at = (lines: typeof linesA) => (index: number) => {
    const line = lines[index];
    return { start: line?.start ?? 0, end: line?.end ?? 0 };
  };
  return rangesOf(ops, at(linesA), at(linesB));
}

/** The deleted and inserted items of a script as ranges, neighbours joined. */
function rangesOf(
  ops: readonly EditOp[],
  spanA: (index: number) => Range,
  spanB: (index: number) => Range,
): { a: Range[]; b: Range[] } {
  const a: Range[] = [];
  const b: Range[] = [];
  for (const op of ops) {
    if (op.op === "delete") join(a, spanA(op.a));
    else if (op.op === "insert") join(b, spanB(op.b));
  }
  return { a, b };
}

function join(ranges: Range[], range: Range): void {
  const last = ranges.at(-1);
  if (last !== undefined && last.end === range.start) last.end = range.end;
  else ranges.push({ ...range });
}

function shift(ranges: Range[], by: number): Range[] {
  return ranges.map((range) => ({ start: range.start + by, end: range.end + by }));
}

/** Widens ranges that would cut a surrogate pair in two, so a mark never splits a character. */
function wholeCharacters(ranges: Range[], text: string): Range[] {
  const high = (at: number) => {
    const code = text.charCodeAt(at);
    return code >= 0xd800 && code <= 0xdbff;
  };
  const widened: Range[] = [];
  for (const range of ranges) {
    const start = range.start > 0 && high(range.start - 1) ? range.start - 1 : range.start;
    const end = range.end < text.length && high(range.end - 1) ? range.end + 1 : range.end;
    join(widened, { start, end });
    const last = widened.at(-1);
    const before = widened.at(-2);
    if (last !== undefined && before !== undefined && before.end >= last.start) {
      before.end = Math.max(before.end, last.end);
      widened.pop();
    }
  }
  return widened;
}
