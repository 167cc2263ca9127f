// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import { scrollWithin } from "./scroll-within";

/** A scroller showing y 100–200 of its content, and an item at `top` (height 20) in page terms. */
function setup(top: number) {
  const scroller = document.createElement("div");
  const item = document.createElement("div");
  scroller.append(item);
  document.body.append(scroller);
  scroller.getBoundingClientRect = () => new DOMRect(0, 100, 100, 100);
  item.getBoundingClientRect = () => new DOMRect(0, top, 100, 20);
  scroller.scrollTop = 0;
  const intoView = vi.fn();
  item.scrollIntoView = intoView;
  return { scroller, item, intoView };
}

describe("scrollWithin", () => {
  it("leaves an item already in view where it is", () => {
    const { scroller, item } = setup(150);
    scrollWithin(scroller, item);
    expect(scroller.scrollTop).toBe(0);
  });

  it("brings an item below the view up to its bottom edge, one above down to its top", () => {
    const below = setup(230);
    below.scroller.scrollTop = 40;
    scrollWithin(below.scroller, below.item);
    expect(below.scroller.scrollTop).toBe(90);
    const above = setup(60);
    above.scroller.scrollTop = 100;
    scrollWithin(above.scroller, above.item);
    expect(above.scroller.scrollTop).toBe(60);
  });

  it("scrolls the scroller only: never the item's scrollIntoView", () => {
    const { scroller, item, intoView } = setup(400);
    scrollWithin(scroller, item);
    expect(intoView).not.toHaveBeenCalled();
  });
});
