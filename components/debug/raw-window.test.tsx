// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BlockWindow, BlockWindowContext } from "./block-window";
import { pointAt, selectionOffset } from "./dom-offset";
import { RawTurn } from "./raw-turn";
import type { Decoration } from "./segments";

/** 200 lines: seven blocks of 32 lines (the last one short). */
const LINES = Array.from(
  { length: 200 },
  (_, index) => `line ${index + 1}: <think>x${index}</think>`,
);
const RAW = LINES.join("\n");
const NO_ERRORS: readonly Decoration[] = [];
const lineStart = (line: number) => RAW.indexOf(`line ${line}:`);

/** An `IntersectionObserver` the test drives: it reports what `report` says. */
class FakeObserver {
  static current: FakeObserver | null = null;
  readonly targets = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.current = this;
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  report(near: (block: Element) => boolean, height = 640) {
    const entries = [...this.targets].map(
      (target) =>
        ({
          target,
          isIntersecting: near(target),
          boundingClientRect: { height },
        }) as unknown as IntersectionObserverEntry,
    );
    act(() => this.callback(entries, this as unknown as IntersectionObserver));
  }
}

const original = globalThis.IntersectionObserver;
beforeAll(() => {
  globalThis.IntersectionObserver = FakeObserver as unknown as typeof IntersectionObserver;
});
afterAll(() => {
  globalThis.IntersectionObserver = original;
});
afterEach(() => {
  cleanup();
  window.getSelection()?.removeAllRanges();
});

const blockAt = (element: Element) => Number(element.getAttribute("data-block-start"));

function renderWindowed(highlight: { start: number; end: number } | null = null) {
  const blockWindow = new BlockWindow();
  const root = document.createElement("div");
  document.body.append(root);
  blockWindow.attach(root);
  const copied: Record<string, string> = {};
  const { container } = render(
    <BlockWindowContext.Provider value={blockWindow}>
      <RawTurn
        turn={0}
        raw={RAW}
        chunkCount={1}
        highlightStart={highlight?.start ?? null}
        highlightEnd={highlight?.end ?? null}
        highlightKind="selected"
        errors={NO_ERRORS}
        streaming={false}
        whitespace={false}
        onPick={() => undefined}
      />
    </BlockWindowContext.Provider>,
  );
  const text = container.querySelector("[data-raw-text]") as HTMLElement;
  const observer = FakeObserver.current;
  if (observer === null) throw new Error("no observer");
  /** Reports the blocks holding `lines` (1-based) near the screen, the others far. */
  const show = (...lines: number[]) =>
    observer.report((block) => {
      const start = blockAt(block);
      const end = Number(block.getAttribute("data-block-end"));
      return lines.some((line) => lineStart(line) >= start && lineStart(line) < end);
    });
  const numbers = () =>
    [...text.querySelectorAll<HTMLElement>("[data-line]")].map((line) => Number(line.dataset.line));
  const copy = () => {
    const clipboardData = { setData: (type: string, value: string) => (copied[type] = value) };
    fireEvent.copy(text, { clipboardData });
    return copied["text/plain"];
  };
  return { text, show, numbers, copy, observer };
}

describe("Raw draws only the blocks near the screen", () => {
  it("draws no line until a block is reported near, then only those blocks' lines", () => {
    const { text, show, numbers } = renderWindowed();
    expect(numbers()).toEqual([]);
    const blocks = [...text.querySelectorAll<HTMLElement>("[data-block-start]")];
    expect(blocks).toHaveLength(7);
    // Not drawn: a box one line height per line, holding the block's place.
    expect(blocks[1]?.style.height).toBe(`${32 * 20}px`);
    show(1, 200);
    const drawn = numbers();
    expect(drawn.slice(0, 32)).toEqual(Array.from({ length: 32 }, (_, index) => index + 1));
    expect(drawn.slice(32)).toEqual(Array.from({ length: 8 }, (_, index) => 193 + index));
  });

  it("scrolled to a far line, its linked span is drawn exactly", () => {
    const span = { start: lineStart(150) + 9, end: lineStart(150) + 27 };
    const { text, show } = renderWindowed(span);
    show(1);
    expect(text.querySelector("[data-span-highlight]")).toBeNull();
    show(150);
    const marked = [...text.querySelectorAll("[data-span-highlight='selected']")]
      .map((element) => element.textContent)
      .join("");
    expect(marked).toBe(RAW.slice(span.start, span.end));
  });

  it("maps points to exact offsets with the blocks before them not drawn", () => {
    const { text, show } = renderWindowed();
    show(180);
    const offset = lineStart(181) + 5;
    const point = pointAt(text, offset);
    if (point === null) throw new Error("line 181 is not drawn");
    expect(point.node.data.slice(point.offset, point.offset + 3)).toBe(
      RAW.slice(offset, offset + 3),
    );
    const range = document.createRange();
    range.setStart(point.node, point.offset);
    range.setEnd(point.node, point.offset + 4);
    window.getSelection()?.addRange(range);
    expect(selectionOffset(text, window.getSelection())).toEqual({
      start: offset,
      end: offset + 4,
    });
    expect(pointAt(text, lineStart(40))).toBeNull();
  });

  it("copies a selection across lines that are not drawn: the raw text between its ends", () => {
    const { text, show, numbers, copy } = renderWindowed();
    show(1, 200);
    const start = lineStart(3) + 2;
    const end = lineStart(197) + 4;
    const from = pointAt(text, start);
    const to = pointAt(text, end);
    if (from === null || to === null) throw new Error("no point");
    const range = document.createRange();
    range.setStart(from.node, from.offset);
    range.setEnd(to.node, to.offset);
    window.getSelection()?.addRange(range);
    // Lines 33 to 192 are not in the DOM at all.
    expect(numbers()).not.toContain(100);
    expect(copy()).toBe(RAW.slice(start, end));
  });

  it("keeps a block that holds an end of the selection drawn when it leaves the screen", () => {
    const { text, show, numbers, observer } = renderWindowed();
    show(1, 100);
    const point = pointAt(text, lineStart(2));
    if (point === null) throw new Error("no point");
    const range = document.createRange();
    range.setStart(point.node, point.offset);
    range.setEnd(point.node, point.offset + 3);
    window.getSelection()?.addRange(range);
    observer.report(() => false, 700);
    expect(numbers()).toContain(2);
    expect(numbers()).not.toContain(100);
    // The block that left keeps its real height while it is not drawn.
    const second = [...text.querySelectorAll<HTMLElement>("[data-block-start]")].find(
      (block) =>
        blockAt(block) <= lineStart(100) && lineStart(100) < Number(block.dataset.blockEnd),
    );
    expect(second?.style.height).toBe("700px");
  });
});
