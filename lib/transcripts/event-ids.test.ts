import { describe, expect, it } from "vitest";
import { EventIds } from "./event-ids";
import type { FileRecord } from "./header";

/** The low hash's start before it was random, and its multiplier. */
const OLD_LOW_SEED = 0x27d4eb2f;
const MULTIPLIER = 0x5bd1e995;

/**
 * 2^stages ids of one hash from `seed` (before its final mixing, which keeps them alike): at
 * each stage two blocks of 4 characters that lead from one state to one state (found by the
 * birthday bound), so every choice of blocks gives the same hash.
 */
function alikeIds(seed: number, stages: number): string[] {
  let random = 0x9e3779b9;
  const next = () => {
    random ^= random << 13;
    random ^= random >>> 17;
    random ^= random << 5;
    return random >>> 0;
  };
  let state = seed;
  const pairs: [string, string][] = [];
  while (pairs.length < stages) {
    const seen = new Map<number, string>();
    for (;;) {
      const codes = [0, 1, 2, 3].map(() => 0x100 + (next() % 0x4000));
      let value = state;
      for (const code of codes) value = Math.imul(value ^ code, MULTIPLIER);
      value >>>= 0;
      const text = String.fromCharCode(...codes);
      const other = seen.get(value);
      if (other !== undefined && other !== text) {
        pairs.push([text, other]);
        state = value;
        break;
      }
      seen.set(value, text);
    }
  }
  const ids: string[] = [];
  for (let n = 0; n < 2 ** stages; n++)
    ids.push(pairs.map(([a, b], stage) => ((n >> stage) & 1 ? b : a)).join(""));
  return ids;
}

const end = (id: string): FileRecord => ({
  kind: "event",
  event: { type: "end", id, timestamp: 0 },
});

describe("EventIds", () => {
  it("refuses an id used twice, naming the first line, and lets a block's pieces share one", () => {
    const ids = new EventIds();
    expect(ids.check(end("a"), 2)).toBeUndefined();
    expect(ids.check(end("b"), 3)).toBeUndefined();
    expect(ids.check(end("a"), 4)).toContain("line 2");
    const piece: FileRecord = {
      kind: "event",
      event: {
        type: "respond",
        id: "r",
        timestamp: 0,
        turn: 0,
        span: { start: 0, end: 0 },
        content: "x",
      },
    };
    expect(ids.check(piece, 5)).toBeUndefined();
    expect(ids.check(piece, 6)).toBeUndefined();
  });

  it("checks at most its bound of distinct ids, so a huge file's memory stays bounded", () => {
    const ids = new EventIds([1, 2], 3);
    for (const [line, id] of ["a", "b", "c"].entries())
      expect(ids.check(end(id), line + 1)).toBeUndefined();
    // Past the bound nothing more is kept (a file of millions of events): ids are not checked.
    expect(ids.check(end("d"), 4)).toBeUndefined();
    expect(ids.check(end("a"), 5)).toBeUndefined();
    expect(ids.checked).toBe(3);
    // Within it, the second use is refused as ever.
    const within = new EventIds([1, 2], 3);
    within.check(end("a"), 1);
    expect(within.check(end("a"), 2)).toContain("line 1");
  });

  it("stays linear for ids made to share a hash of a known start (their slots are random)", () => {
    const alike = alikeIds(OLD_LOW_SEED, 12);
    // With the start they were made for, every id lands in one run of slots: quadratic.
    const fixed = new EventIds([0x811c9dc5, OLD_LOW_SEED]);
    for (const [index, id] of alike.entries())
      expect(fixed.check(end(id), index + 2)).toBeUndefined();
    expect(fixed.probes).toBeGreaterThan(alike.length ** 2 / 4);
    // As a file is read: a start of its own, so a few slots looked at per id.
    const ids = new EventIds();
    for (const [index, id] of alike.entries())
      expect(ids.check(end(id), index + 2)).toBeUndefined();
    expect(ids.probes).toBeLessThan(alike.length * 4);
  });
});
