// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
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

/** Moves the scroller as the user (or the browser) would, and delivers its scroll event. */
function scrollTo(element: HTMLElement, top: number): void {
  element.scrollTop = top;
  act(() => {
    element.dispatchEvent(new Event("scroll"));
  });
}

/** Runs the frame the hook asked for (`followInFrame`). */
async function nextFrame(): Promise<void> {
  await act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("useStickToBottom", () => {
  it("follows growing content while at the bottom", () => {
    const size = { height: 2_000 };
    const element = scroller(size, 500);
    const { result } = renderHook(() => useStickToBottom({ current: element }));
    act(() => result.current.follow());
    expect(element.scrollTop).toBe(1_500);
    size.height = 2_600;
    act(() => result.current.follow());
    expect(element.scrollTop).toBe(2_100);
    expect(result.current.detached).toBe(false);
  });

  it("does not pull back a scroll upwards whose event has not arrived yet", () => {
    const element = scroller({ height: 2_000 }, 500);
    const { result } = renderHook(() => useStickToBottom({ current: element }));
    act(() => result.current.follow());
    // A script (or the scrollbar) moves the view to the top; a re-render asks to follow
    // before the scroll event is dispatched.
    element.scrollTop = 0;
    act(() => result.current.follow());
    expect(element.scrollTop).toBe(0);
    expect(result.current.detached).toBe(true);
    act(() => result.current.jumpToLatest());
    expect(element.scrollTop).toBe(1_500);
    expect(result.current.detached).toBe(false);
  });

  it("follows in the next frame, and a scroll straight to the very top lets go", async () => {
    const element = scroller({ height: 90_000 }, 800);
    const { result, rerender } = renderHook(() => useStickToBottom({ current: element }));
    act(() => result.current.followInFrame());
    await nextFrame();
    expect(element.scrollTop).toBe(89_200);
    // The browser moved the view a little by itself (lines drawn above): still following.
    scrollTo(element, 89_190);
    expect(result.current.isStuck()).toBe(true);
    // Then the user goes to the top in one step (Ctrl+Home, the scrollbar dragged up).
    scrollTo(element, 0);
    expect(result.current.detached).toBe(true);
    // A render (a click in the text selects an event) must not pull the view back down.
    rerender();
    act(() => result.current.followInFrame());
    await nextFrame();
    expect(element.scrollTop).toBe(0);
  });

  it("lets go only on a move upwards: content growing under the view does not", () => {
    const size = { height: 2_000 };
    const element = scroller(size, 500);
    const { result } = renderHook(() => useStickToBottom({ current: element }));
    act(() => result.current.follow());
    // Content grew between our scroll and its event: far from the bottom, but nobody moved up.
    size.height = 5_000;
    scrollTo(element, 1_500);
    expect(result.current.isStuck()).toBe(true);
    act(() => result.current.follow());
    expect(element.scrollTop).toBe(4_500);
  });

  it("stays where the user scrolled up to, and follows again once back at the bottom", () => {
    const size = { height: 2_000 };
    const element = scroller(size, 500);
    const { result } = renderHook(() => useStickToBottom({ current: element }));
    act(() => result.current.follow());
    scrollTo(element, 700);
    size.height = 3_000;
    act(() => result.current.follow());
    expect(element.scrollTop).toBe(700);
    expect(result.current.detached).toBe(true);
    scrollTo(element, 2_500);
    expect(result.current.detached).toBe(false);
    size.height = 4_000;
    act(() => result.current.follow());
    expect(element.scrollTop).toBe(3_500);
  });

  it("lets go at once on a wheel turn upwards, before its scroll event", () => {
    const element = scroller({ height: 2_000 }, 500);
    const { result } = renderHook(() => useStickToBottom({ current: element }));
    act(() => result.current.follow());
    act(() => {
      element.dispatchEvent(new WheelEvent("wheel", { deltaY: -10 }));
    });
    expect(result.current.isStuck()).toBe(false);
    expect(result.current.detached).toBe(true);
  });

  it("ignores the scrolls of boxes inside the scroller", () => {
    const element = scroller({ height: 2_000 }, 500);
    const inner = document.createElement("pre");
    element.append(inner);
    const { result } = renderHook(() => useStickToBottom({ current: element }));
    act(() => result.current.follow());
    element.scrollTop = 0;
    act(() => {
      inner.dispatchEvent(new Event("scroll"));
    });
    // The scroller's own move upwards was not seen through the inner box's event.
    expect(result.current.detached).toBe(false);
  });

  it("opens where it is when told not to start stuck", async () => {
    const element = scroller({ height: 2_000 }, 500);
    element.scrollTop = 300;
    const { result } = renderHook(() =>
      useStickToBottom({ current: element }, { startStuck: false }),
    );
    act(() => result.current.followInFrame());
    await nextFrame();
    expect(element.scrollTop).toBe(300);
    expect(result.current.detached).toBe(true);
  });

  it("follows a child that grows without a render, when it watches children", async () => {
    const callbacks: (() => void)[] = [];
    const observed: Element[] = [];
    vi.stubGlobal(
      "ResizeObserver",
      class {
        constructor(callback: () => void) {
          callbacks.push(callback);
        }
        observe(target: Element) {
          observed.push(target);
        }
        unobserve() {}
        disconnect() {}
      },
    );
    const size = { height: 2_000 };
    const element = scroller(size, 500);
    const child = document.createElement("section");
    element.append(child);
    const { result } = renderHook(() =>
      useStickToBottom({ current: element }, { watchChildren: true }),
    );
    act(() => result.current.follow());
    expect(observed).toEqual([child]);
    size.height = 2_400;
    for (const callback of callbacks) callback();
    await nextFrame();
    expect(element.scrollTop).toBe(1_900);
  });
});
