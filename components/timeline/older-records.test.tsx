// @vitest-environment jsdom
import { cleanup, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type OpenTranscript, usePlayground } from "@/state/playground-store";
import { useLoadOlderNearTop } from "./older-records";

const pages = vi.hoisted(() => ({ loadOlder: vi.fn(async () => false) }));
vi.mock("@/state/transcript-pages", () => ({
  isWhole: () => false,
  loadOlder: pages.loadOlder,
  loadAll: vi.fn(),
}));

afterEach(cleanup);

beforeEach(() => {
  pages.loadOlder.mockClear();
  const transcript = { meta: { id: "t1" }, records: [] } as unknown as OpenTranscript;
  usePlayground.setState({ transcript, transcriptId: "t1", olderLoading: false });
});

function scroller(): HTMLDivElement {
  const element = document.createElement("div");
  document.body.append(element);
  return element;
}

describe("useLoadOlderNearTop", () => {
  it("loads an older page when scrolled near the top, not further down", () => {
    const element = scroller();
    renderHook(() => useLoadOlderNearTop({ current: element }));
    element.scrollTop = 5000;
    element.dispatchEvent(new Event("scroll"));
    expect(pages.loadOlder).not.toHaveBeenCalled();
    element.scrollTop = 100;
    element.dispatchEvent(new Event("scroll"));
    expect(pages.loadOlder).toHaveBeenCalledTimes(1);
  });

  it("reads the position before the scroller's own listeners (which render and move it) run", () => {
    const element = scroller();
    // Stands for the virtualizer: its listener, added first, renders cards; any read after
    // it forces a layout. Here it moves the position, so a late read sees the change.
    element.addEventListener("scroll", () => {
      element.scrollTop = 5000;
    });
    renderHook(() => useLoadOlderNearTop({ current: element }));
    element.scrollTop = 100;
    element.dispatchEvent(new Event("scroll"));
    expect(pages.loadOlder).toHaveBeenCalledTimes(1);
  });
});
