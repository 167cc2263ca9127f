// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { useStickToBottom } from "./use-stick-to-bottom";

/** A scroller whose sizes jsdom does not lay out: set by hand. */
function scroller(scrollHeight: number, clientHeight: number): HTMLElement {
  const element = document.createElement("div");
  let top = 0;
  Object.defineProperty(element, "scrollHeight", { get: () => scrollHeight, configurable: true });
  Object.defineProperty(element, "clientHeight", { get: () => clientHeight });
  Object.defineProperty(element, "scrollTop", {
    get: () => top,
    set: (value: number) => {
      top = Math.max(0, Math.min(value, scrollHeight - clientHeight));
    },
  });
  return element;
}

describe("useStickToBottom", () => {
  it("follows growing content while at the bottom", () => {
    const element = scroller(2000, 500);
    const { result } = renderHook(() => useStickToBottom({ current: element }));
    act(() => result.current.follow());
    expect(element.scrollTop).toBe(1500);
  });

  it("does not pull back a scroll upwards whose event has not arrived yet", () => {
    const element = scroller(2000, 500);
    const { result } = renderHook(() => useStickToBottom({ current: element }));
    act(() => result.current.follow());
    // A script (or the scrollbar) moves the view to the top; a re-render asks to follow
    // before the scroll event is dispatched.
    element.scrollTop = 0;
    act(() => result.current.follow());
    expect(element.scrollTop).toBe(0);
    expect(result.current.detached).toBe(true);
    act(() => result.current.jumpToLatest());
    expect(element.scrollTop).toBe(1500);
    expect(result.current.detached).toBe(false);
  });
});
