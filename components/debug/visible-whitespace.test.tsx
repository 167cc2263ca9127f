// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RunLog } from "@/lib/client/run-log";
import { usePlayground } from "@/state/playground-store";
import { ChunksView } from "./chunks-view";
import { stubLayout } from "./test-layout";
import { ChunkText, markWhitespace, visibleWhitespace } from "./visible-whitespace";

stubLayout();

afterEach(cleanup);

describe("visible whitespace", () => {
  it("draws spaces, line breaks, tabs and carriage returns as symbols", () => {
    expect(visibleWhitespace("a b\n\tc\r\n")).toEqual([
      { text: "a", whitespace: false },
      { text: "·", whitespace: true },
      { text: "b", whitespace: false },
      { text: "↵→", whitespace: true },
      { text: "c", whitespace: false },
      { text: "␍↵", whitespace: true },
    ]);
  });

  it("keeps astral characters whole and other text as is", () => {
    const parts = visibleWhitespace("§call: 🙂");
    expect(parts.map((part) => part.text).join("")).toBe("§call:·🙂");
  });

  it("marks whitespace runs for Raw without replacing a character", () => {
    const text = "a  b\t\tc\r\n\n🙂 ";
    const parts = markWhitespace(text);
    expect(parts).toEqual([
      { text: "a", glyph: null },
      { text: "  ", glyph: "··" },
      { text: "b", glyph: null },
      { text: "\t", glyph: "→" },
      { text: "\t", glyph: "→" },
      { text: "c", glyph: null },
      { text: "\r", glyph: "␍" },
      { text: "\n\n", glyph: "↵↵" },
      { text: "🙂", glyph: null },
      { text: " ", glyph: "·" },
    ]);
    expect(parts.map((part) => part.text).join("")).toBe(text);
    // One symbol per character, so the symbols line up with the characters under them.
    for (const part of parts)
      if (part.glyph !== null) expect(part.glyph).toHaveLength(part.text.length);
  });

  it("renders a chunk on one line, whitespace dimmed", () => {
    const { container } = render(<ChunkText text={"  {\n\t}"} />);
    expect(container.textContent).toBe("··{↵→}");
    expect(container.querySelectorAll("span.text-fg-subtle")).toHaveLength(2);
  });
});

describe("ChunksView", () => {
  it("lists every chunk with index, time, size, turn and visible text", () => {
    const log = new RunLog();
    log.apply({ kind: "chunk", turn: 0, t: 3.25, text: "<think>a b" });
    log.apply({ kind: "chunk", turn: 0, t: 9, text: "</think>\n" });
    log.apply({ kind: "chunk", turn: 1, t: 40.5, text: "\t§end" });
    usePlayground.setState({ log, version: log.version });
    const { container } = render(<ChunksView />);
    const rows = [...container.querySelectorAll("[data-chunk]")].map((row) =>
      [...row.children].map((cell) => cell.textContent),
    );
    expect(rows).toEqual([
      ["0", "3.3", "10", "0", "<think>a·b"],
      ["1", "9.0", "9", "0", "</think>↵"],
      ["2", "40.5", "5", "1", "→§end"],
    ]);
  });
});
