import { describe, expect, it } from "vitest";
import { itemsNear, wrappedRows } from "./near-items";

describe("itemsNear", () => {
  const boxes = [0, 100, 200, 300, 400, 500].map((top) => ({ top, bottom: top + 100 }));

  it("takes the items overlapping the view and the margin around it, no others", () => {
    expect(itemsNear(boxes, { top: 150, bottom: 250 }, 0)).toEqual([1, 2]);
    expect(itemsNear(boxes, { top: 150, bottom: 250 }, 60)).toEqual([0, 1, 2, 3]);
    expect(itemsNear(boxes, { top: 1000, bottom: 1200 }, 0)).toEqual([]);
  });

  it("finds none in an empty list", () => {
    expect(itemsNear([], { top: 0, bottom: 900 }, 400)).toEqual([]);
  });
});

describe("wrappedRows", () => {
  it("counts each line at least once, and long lines by the columns they fill", () => {
    expect(wrappedRows("", 10)).toBe(1);
    expect(wrappedRows("a\n\nb", 10)).toBe(3);
    expect(wrappedRows("x".repeat(25), 10)).toBe(3);
    expect(wrappedRows(`${"x".repeat(10)}\n`, 10)).toBe(2);
  });
});
