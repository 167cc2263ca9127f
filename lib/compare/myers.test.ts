import { describe, expect, it } from "vitest";
import { type EditOp, myers } from "./myers";

const BIG = { maxDistance: 10_000, maxWork: 10_000_000 };

function script(a: string, b: string, budget = BIG): EditOp[] | null {
  return myers(a.length, b.length, (i, j) => a[i] === b[j], budget);
}

/** Applies a script to `a`: must give `b`, and every `equal` must pair equal items. */
function check(a: string, b: string, ops: EditOp[]): number {
  let out = "";
  let edits = 0;
  let ia = 0;
  let ib = 0;
  for (const op of ops) {
    if (op.op === "equal") {
      expect([op.a, op.b]).toEqual([ia, ib]);
      expect(a[op.a]).toBe(b[op.b]);
      out += a[op.a];
      ia++;
      ib++;
    } else if (op.op === "delete") {
      expect(op.a).toBe(ia);
      ia++;
      edits++;
    } else {
      expect(op.b).toBe(ib);
      out += b[op.b];
      ib++;
      edits++;
    }
  }
  expect(out).toBe(b);
  expect(ia).toBe(a.length);
  return edits;
}

describe("myers", () => {
  it("finds a shortest edit script", () => {
    const ops = script("ABCABBA", "CBABAC");
    expect(ops).not.toBeNull();
    expect(check("ABCABBA", "CBABAC", ops ?? [])).toBe(5);
  });

  it("handles empty sides", () => {
    expect(check("", "abc", script("", "abc") ?? [])).toBe(3);
    expect(check("abc", "", script("abc", "") ?? [])).toBe(3);
    expect(script("", "")).toEqual([]);
  });

  it("is minimal on seeded random strings (checked against an LCS table)", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const word = () =>
      Array.from({ length: Math.floor(random() * 30) }, () => "abc"[Math.floor(random() * 3)]).join(
        "",
      );
    for (let round = 0; round < 200; round++) {
      const a = word();
      const b = word();
      const edits = check(a, b, script(a, b) ?? []);
      expect(edits).toBe(a.length + b.length - 2 * lcs(a, b));
    }
  });

  it("gives up past the distance cap", () => {
    expect(script("aaaa", "bbbb", { maxDistance: 7, maxWork: 1_000 })).toBeNull();
    expect(script("aaaa", "bbbb", { maxDistance: 8, maxWork: 1_000 })).not.toBeNull();
  });

  it("gives up past the work cap", () => {
    const a = "x".repeat(5_000);
    const b = "y".repeat(5_000);
    expect(script(a, b, { maxDistance: 1_000_000, maxWork: 10_000 })).toBeNull();
  });
});

function lcs(a: string, b: string): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      (table[i] as number[])[j] =
        a[i - 1] === b[j - 1]
          ? ((table[i - 1] as number[])[j - 1] as number) + 1
          : Math.max(
              (table[i - 1] as number[])[j] as number,
              (table[i] as number[])[j - 1] as number,
            );
  return (table[a.length] as number[])[b.length] as number;
}
