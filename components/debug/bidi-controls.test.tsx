// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { pointAt, textOffsetOf } from "./dom-offset";
import { renderRawTurn } from "./raw-turn.testing";
import { ChunkText } from "./visible-whitespace";

/** What a model (or a custom dialect with such a marker) may write: an override, then text. */
const RAW =
  '<think>\u202eThe user wants the files.</think>\n<execute>[{"name":"list"}]\u2067x\u2069</execute>';

const renderTurn = (whitespace: boolean) => renderRawTurn(RAW, whitespace);

/** The bidi controls of `root`'s text, each with the element that holds it alone. */
function controls(root: HTMLElement) {
  return [...root.querySelectorAll<HTMLElement>("[data-bidi]")].map((element) => ({
    name: element.dataset.bidi,
    text: element.textContent,
    isolated: element.style.unicodeBidi === "isolate",
  }));
}

afterEach(cleanup);

describe("bidi controls in wire text", () => {
  for (const whitespace of [false, true])
    it(`are kept but isolated in Raw (whitespace ${whitespace ? "on" : "off"}), so the line is drawn in the order it was written`, () => {
      const text = renderTurn(whitespace);
      expect(text.textContent).toBe(RAW);
      expect(controls(text)).toEqual([
        { name: "RLO", text: "\u202e", isolated: true },
        { name: "RLI", text: "\u2067", isolated: true },
        { name: "PDI", text: "\u2069", isolated: true },
      ]);
      // Offsets still map 1:1 across them (linking, selection).
      const after = RAW.indexOf("The user");
      const point = pointAt(text, after);
      if (point === null) throw new Error("no point");
      expect(textOffsetOf(text, point.node, point.offset)).toBe(after);
    });

  it("are named in whitespace mode only", () => {
    const named = (text: HTMLElement) =>
      [...text.querySelectorAll<HTMLElement>("[data-bidi]")].every((element) =>
        element.className.includes("before:content-[attr(data-bidi)"),
      );
    expect(named(renderTurn(true))).toBe(true);
    cleanup();
    expect(named(renderTurn(false))).toBe(false);
  });

  it("are isolated and named in the Chunks view", () => {
    const { container } = render(<ChunkText text={"a \u202eb"} />);
    expect(container.textContent).toBe("a·\u202eb");
    expect(controls(container)).toEqual([{ name: "RLO", text: "\u202e", isolated: true }]);
  });
});
