import { diffEvents, type EventPair, eventsDiffer } from "./event-diff";
import { type EditBudget, myers } from "./myers";
import type { CompareTurn, Exchange } from "./turns";

/** How a row of the compare view reads. */
export type RowStatus = "same" | "changed" | "only-a" | "only-b";

/** One row: a turn of each side (either may be missing: a gap), and the user message above it. */
export interface CompareRow {
  /** Index of the aligned exchange the row belongs to. */
  exchange: number;
  /** Set on the first row of an exchange: the user message of each side (when it has one). */
  user?: { a?: string; b?: string };
  a?: CompareTurn;
  b?: CompareTurn;
  status: RowStatus;
  /** The events paired, differing fields named. */
  events: EventPair[];
}

const BUDGET: EditBudget = { maxDistance: 1_000, maxWork: 2_000_000 };

/**
 * Lines two transcripts up turn by turn. Exchanges (a user message and its turns) are aligned
 * by Myers over their user messages, so an inserted or removed message leaves a gap instead of
 * shifting everything after it; exchanges left over between two matches are paired in order
 * (an edited message). Within a pair, turns go side by side by index and the longer side's
 * extra turns face gaps. A fork's copied prefix has the same messages and turns, so it lines
 * up exactly. Past the budget (thousands of differing messages) exchanges pair by index.
 */
export function alignTranscripts(a: readonly Exchange[], b: readonly Exchange[]): CompareRow[] {
  const ops = myers(a.length, b.length, (i, j) => a[i]?.user === b[j]?.user, BUDGET);
  const pairs: [Exchange | undefined, Exchange | undefined][] = [];
  let onlyA: Exchange[] = [];
  let onlyB: Exchange[] = [];
  const flush = () => {
    const count = Math.max(onlyA.length, onlyB.length);
    for (let index = 0; index < count; index++) pairs.push([onlyA[index], onlyB[index]]);
    onlyA = [];
    onlyB = [];
  };
  if (ops === null) {
    onlyA = [...a];
    onlyB = [...b];
  } else {
    for (const op of ops) {
      if (op.op === "delete") onlyA.push(a[op.a] as Exchange);
      else if (op.op === "insert") onlyB.push(b[op.b] as Exchange);
      else {
        flush();
        pairs.push([a[op.a], b[op.b]]);
      }
    }
  }
  flush();
  const rows: CompareRow[] = [];
  pairs.forEach(([left, right], exchange) => {
    const count = Math.max(left?.turns.length ?? 0, right?.turns.length ?? 0, 1);
    for (let index = 0; index < count; index++) {
      const turnA = left?.turns[index];
      const turnB = right?.turns[index];
      const user =
        index === 0 && (left?.user !== undefined || right?.user !== undefined)
          ? { a: left?.user, b: right?.user }
          : undefined;
      rows.push(rowOf(exchange, user, turnA, turnB, left !== undefined, right !== undefined));
    }
  });
  return rows;
}

function rowOf(
  exchange: number,
  user: { a?: string | undefined; b?: string | undefined } | undefined,
  a: CompareTurn | undefined,
  b: CompareTurn | undefined,
  hasA: boolean,
  hasB: boolean,
): CompareRow {
  const events = diffEvents(a?.events ?? [], b?.events ?? []);
  const status: RowStatus =
    a === undefined && b !== undefined
      ? "only-b"
      : b === undefined && a !== undefined
        ? "only-a"
        : !hasA
          ? "only-b"
          : !hasB
            ? "only-a"
            : a?.raw !== b?.raw || user?.a !== user?.b || eventsDiffer(events)
              ? "changed"
              : "same";
  const row: CompareRow = { exchange, a, b, status, events };
  if (user !== undefined) {
    row.user = {};
    if (user.a !== undefined) row.user.a = user.a;
    if (user.b !== undefined) row.user.b = user.b;
  }
  if (a === undefined) delete row.a;
  if (b === undefined) delete row.b;
  return row;
}
