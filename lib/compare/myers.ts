/**
 * Myers' O((N+M)·D) shortest edit script over two sequences given by length and an equality
 * test, with a budget: it gives up (returns `null`) once the edit distance passes `maxDistance`
 * or the work (diagonal steps walked) passes `maxWork`, so no input can make it run long or
 * hold much memory. The trace it keeps for the walk back is O(D²) numbers, D ≤ `maxDistance`.
 */

/** One step of the script, in order: a pair of equal items, or an item of one side only. */
export type EditOp =
  | { op: "equal"; a: number; b: number }
  | { op: "delete"; a: number }
  | { op: "insert"; b: number };

export interface EditBudget {
  maxDistance: number;
  maxWork: number;
}

export function myers(
  n: number,
  m: number,
  equal: (a: number, b: number) => boolean,
  budget: EditBudget,
): EditOp[] | null {
  const limit = Math.min(n + m, budget.maxDistance);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  let work = 0;
  for (let d = 0; d <= limit; d++) {
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[k - 1 + offset] ?? 0) < (v[k + 1 + offset] ?? 0));
      const start = down ? (v[k + 1 + offset] ?? 0) : (v[k - 1 + offset] ?? 0) + 1;
      let x = start;
      let y = x - k;
      while (x < n && y < m && equal(x, y)) {
        x++;
        y++;
      }
      work += 1 + x - start;
      if (work > budget.maxWork) return null;
      v[k + offset] = x;
      if (x >= n && y >= m) {
        trace.push(v.slice(offset - d, offset + d + 1));
        return walkBack(trace, n, m);
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  return null;
}

/** From the end back to the start through the saved fronts, then reversed into order. */
function walkBack(trace: readonly Int32Array[], n: number, m: number): EditOp[] {
  const ops: EditOp[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const front = trace[d - 1] as Int32Array;
    // front[i] is the furthest x on diagonal k = i - (d - 1).
    const at = (k: number) => front[k + d - 1] ?? 0;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    const startX = down ? previousX : previousX + 1;
    while (x > startX) {
      x--;
      y--;
      ops.push({ op: "equal", a: x, b: y });
    }
    if (down) ops.push({ op: "insert", b: previousY });
    else ops.push({ op: "delete", a: previousX });
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    ops.push({ op: "equal", a: x, b: y });
  }
  return ops.reverse();
}
