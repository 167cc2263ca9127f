// @vitest-environment jsdom
import { cleanup, fireEvent } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { pointAt } from "./dom-offset";
import { renderRawTurn } from "./raw-turn.testing";

/** 40 lines: more than one 32-line block, so numbering must carry across blocks. */
const LINES = Array.from({ length: 40 }, (_, index) =>
  index % 7 === 3 ? "" : `\tline ${index + 1}  of  text`,
);
const RAW = `${LINES.join("\r\n")}\n<think>last line, no newline</think>`;

const renderTurn = (whitespace: boolean, raw = RAW) => renderRawTurn(raw, whitespace);

afterEach(() => {
  cleanup();
  window.getSelection()?.removeAllRanges();
});

describe("Raw turn gutter", () => {
  it("numbers every real line once, and the numbers are no text", () => {
    const text = renderTurn(false);
    const lines = [...text.querySelectorAll<HTMLElement>("[data-line]")];
    const real = RAW.split("\n");
    expect(lines.map((line) => line.dataset.line)).toEqual(real.map((_, index) => `${index + 1}`));
    // Each numbered element holds exactly its real line, the line break included.
    expect(lines.map((line) => line.textContent)).toEqual(
      real.map((line, index) => (index < real.length - 1 ? `${line}\n` : line)),
    );
    expect(text.textContent).toBe(RAW);
    // The gutter is as wide as the largest number and a space.
    expect(text.style.getPropertyValue("--gutter")).toBe("3ch");
  });

  it("an empty last line after a final newline gets no number", () => {
    const text = renderTurn(false, "one\ntwo\n");
    const numbers = [...text.querySelectorAll<HTMLElement>("[data-line]")].map(
      (line) => line.dataset.line,
    );
    expect(numbers).toEqual(["1", "2"]);
  });
});

describe("Raw turn visible whitespace", () => {
  it("draws a symbol over every space, tab, CR and newline, keeping the text whole", () => {
    const text = renderTurn(true);
    expect(text.textContent).toBe(RAW);
    expect(text.hasAttribute("data-raw-whitespace")).toBe(true);
    const marks = [...text.querySelectorAll<HTMLElement>("[data-ws]")];
    const symbol: Record<string, string> = { " ": "·", "\t": "→", "\r": "␍", "\n": "↵" };
    let covered = 0;
    for (const mark of marks) {
      const characters = mark.textContent ?? "";
      expect(mark.dataset.ws).toBe([...characters].map((c) => symbol[c]).join(""));
      // Symbols are drawn by CSS from the attribute, hidden from screen readers.
      expect(mark.className).toContain("before:content-[attr(data-ws)_/_'']");
      covered += characters.length;
    }
    expect(covered).toBe([...RAW].filter((c) => c in symbol).length);
  });

  it("with whitespace off, nothing is marked", () => {
    const text = renderTurn(false);
    expect(text.querySelectorAll("[data-ws]")).toHaveLength(0);
    expect(text.hasAttribute("data-raw-whitespace")).toBe(false);
  });

  it("copies the selected raw text exactly, not one line break per line block", () => {
    const text = renderTurn(true);
    const start = RAW.indexOf("line 2 ");
    const end = RAW.indexOf("line 6 ");
    const from = pointAt(text, start);
    const to = pointAt(text, end);
    if (from === null || to === null) throw new Error("no point");
    const range = document.createRange();
    range.setStart(from.node, from.offset);
    range.setEnd(to.node, to.offset);
    window.getSelection()?.addRange(range);
    const copied: Record<string, string> = {};
    const clipboardData = { setData: (type: string, value: string) => (copied[type] = value) };
    fireEvent.copy(text, { clipboardData });
    expect(copied["text/plain"]).toBe(RAW.slice(start, end));
  });

  it("leaves a copy reaching outside the turn to the browser", () => {
    const text = renderTurn(true);
    const range = document.createRange();
    range.setStart(document.body, 0);
    range.setEnd(text, 1);
    window.getSelection()?.addRange(range);
    const copied: Record<string, string> = {};
    const clipboardData = { setData: (type: string, value: string) => (copied[type] = value) };
    fireEvent.copy(text, { clipboardData });
    expect(copied).toEqual({});
  });
});
