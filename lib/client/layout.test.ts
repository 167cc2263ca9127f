import { describe, expect, it } from "vitest";
import { MIN_CONVERSATION, MIN_DEBUG, planLayout, SIDEBAR_WIDTH, shareOf } from "./layout";

const conversation = (width: number, sidebarOpen = true, debugShare = 0.36) => {
  const layout = planLayout({ width, debugShare, sidebarOpen });
  const sidebar = sidebarOpen && layout.sidebar === "inline" ? SIDEBAR_WIDTH : 0;
  const debug = layout.debug === "inline" ? layout.debugWidth : 0;
  return { layout, conversation: width - sidebar - debug };
};

describe("planLayout", () => {
  it("puts everything side by side on a wide window", () => {
    const { layout, conversation: left } = conversation(1440);
    expect(layout).toMatchObject({ sidebar: "inline", debug: "inline" });
    expect(layout.debugWidth).toBe(Math.round(1440 * 0.36));
    expect(left).toBeGreaterThanOrEqual(MIN_CONVERSATION);
  });

  it("moves the sidebar to a drawer at 1024 px and keeps the debug panel beside", () => {
    const { layout, conversation: left } = conversation(1024);
    expect(layout).toMatchObject({ sidebar: "drawer", debug: "inline" });
    expect(left).toBeGreaterThanOrEqual(MIN_CONVERSATION);
  });

  it("makes both drawers at 800 px, the conversation takes the window", () => {
    const { layout, conversation: left } = conversation(800);
    expect(layout).toMatchObject({ sidebar: "drawer", debug: "drawer" });
    expect(left).toBe(800);
    expect(layout.debugWidth).toBeLessThanOrEqual(800 - 32);
  });

  it("never squeezes the conversation below its minimum, whatever share is asked", () => {
    for (let width = 600; width <= 2560; width += 7) {
      for (const share of [0, 0.05, 0.36, 0.7, 0.99, 5]) {
        for (const sidebarOpen of [true, false]) {
          const { layout, conversation: left } = conversation(width, sidebarOpen, share);
          expect(left).toBeGreaterThanOrEqual(Math.min(width, MIN_CONVERSATION));
          if (layout.debug === "inline")
            expect(layout.debugWidth).toBeGreaterThanOrEqual(MIN_DEBUG);
        }
      }
    }
  });

  it("gives the debug panel the sidebar's room when the sidebar is closed", () => {
    const open = planLayout({ width: 1200, debugShare: 0.7, sidebarOpen: true });
    const closed = planLayout({ width: 1200, debugShare: 0.7, sidebarOpen: false });
    expect(closed.debugWidth).toBeGreaterThan(open.debugWidth);
  });

  it("remembers a dragged width as a bounded share", () => {
    expect(shareOf(500, 1000)).toBe(0.5);
    expect(shareOf(5000, 1000)).toBe(0.7);
    expect(shareOf(1, 1000)).toBe(0.1);
    expect(shareOf(500, 0)).toBe(0.36);
  });
});
