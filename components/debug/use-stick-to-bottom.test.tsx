// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useStickToBottom } from "./use-stick-to-bottom";

/** A scroller whose sizes jsdom does not lay out: set by hand. */
function scroller(size: { height: number }, clientHeight: number): HTMLElement {
  const element = document.createElement("div");
  let top = 0;
  Object.defineProperty(element, "scrollHeight", { get: () => size.height });
  Object.defineProperty(element, "clientHeight", { get: () => clientHeight });
  Object.defineProperty(element, "scrollTop", {
    get: () => top,
    set: (value: number) => {
      top = Math.max(0, Math.min(value, size.height - clientHeight));
    },
  });
  return element;
}

/** Runs the frame the hook asked for (its pin to the bottom). */
async function nextFrame(): Promise<void> {
  await act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
}

describe("useStickToBottom (Raw, Chunks)", () => {
  it("pins to the bottom on render, and a scroll straight to the very top unpins it", async () => {
    const element = scroller({ height: 90_000 }, 800);
    const ref = { current: element };
    const { result, rerender } = renderHook(() => useStickToBottom(ref));
    await nextFrame();
    expect(element.scrollTop).toBe(89_200);
    // Content grew and the browser moved the view by itself: not ours, still at the bottom.
    element.scrollTop = 89_190;
    act(() => result.current());
    // Then the user goes to the top in one step (Ctrl+Home, the scrollbar dragged up).
    element.scrollTop = 0;
    act(() => result.current());
    // A render (a click in the text selects an event) must not pull the view back down.
    rerender();
    await nextFrame();
    expect(element.scrollTop).toBe(0);
  });

  it("stays where the user scrolled up to, and follows again once back at the bottom", async () => {
    const size = { height: 2_000 };
    const element = scroller(size, 500);
    const ref = { current: element };
    const { result, rerender } = renderHook(() => useStickToBottom(ref));
    await nextFrame();
    act(() => result.current());
    element.scrollTop = 700;
    act(() => result.current());
    rerender();
    await nextFrame();
    expect(element.scrollTop).toBe(700);
    size.height = 3_000;
    rerender();
    await nextFrame();
    expect(element.scrollTop).toBe(700);
    element.scrollTop = 2_500;
    act(() => result.current());
    size.height = 4_000;
    rerender();
    await nextFrame();
    expect(element.scrollTop).toBe(3_500);
  });
});
