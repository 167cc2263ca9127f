// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RunLog } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { pointAt, selectedSpan, selectionOffset, textOffsetOf } from "./dom-offset";
import { eventForPick } from "./linked-span";
import { RawView } from "./raw-view";
import type { Decoration } from "./segments";
import { WireLine } from "./wire-line";

const THINK = "<think>héllo 🙂 wörld\r\nline 𝒳 two</think>";
const CALL = '{"name":"list","args":{"p":"🙂"}}';
const EXECUTE = `<execute>\r\n[${CALL}]\r\n</execute>`;
const RAW = `${THINK}\r\n\r\n${EXECUTE}`;
const callStart = RAW.indexOf(CALL);
const executeStart = RAW.indexOf("<execute>");

const EVENTS: ProtocolEvent[] = [
  {
    type: "think",
    id: "t",
    timestamp: 0,
    turn: 0,
    span: { start: 0, end: THINK.length },
    content: "x",
  },
  {
    type: "call",
    id: "c",
    timestamp: 0,
    turn: 0,
    span: { start: callStart, end: callStart + CALL.length },
    call: { id: "c", name: "list", args: { p: "🙂" } },
  },
  {
    type: "execute",
    id: "x",
    timestamp: 0,
    turn: 0,
    span: { start: executeStart, end: RAW.length },
  },
];

function makeLog(chunks: string[]): RunLog {
  const log = new RunLog();
  for (const text of chunks) log.apply({ kind: "chunk", turn: 0, t: 0, text });
  for (const event of EVENTS) log.apply({ kind: "event", event });
  return log;
}

/** Renders RAW the way the raw view does: lines cut into segments by runs and decorations. */
function renderLines(decorations: Decoration[], whitespace = false) {
  const starts = [0];
  for (let at = RAW.indexOf("\n"); at !== -1; at = RAW.indexOf("\n", at + 1)) starts.push(at + 1);
  const runs = [{ start: 1, end: 6, color: "red", fontStyle: 0 }];
  const { container } = render(
    <pre data-raw-text="">
      {starts.map((start, index) => (
        <WireLine
          key={start}
          text={RAW.slice(start, starts[index + 1] ?? RAW.length)}
          start={start}
          runs={index === 0 ? runs : undefined}
          decorations={decorations}
          whitespace={whitespace}
        />
      ))}
    </pre>,
  );
  return container.querySelector("pre") as HTMLElement;
}

afterEach(() => {
  cleanup();
  window.getSelection()?.removeAllRanges();
});

describe("offsets between the DOM and the raw text", () => {
  const decorations: Decoration[] = [
    { kind: "highlight", start: callStart, end: callStart + CALL.length, highlight: "hover" },
    { kind: "error", start: 3, end: 14, title: "invalid_json: bad" },
  ];

  it("renders every character once, in order", () => {
    const root = renderLines(decorations);
    expect(root.textContent).toBe(RAW);
    const highlighted = [...root.querySelectorAll("[data-span-highlight]")].map(
      (node) => node.textContent,
    );
    expect(highlighted.join("")).toBe(CALL);
  });

  it.each([false, true])(
    "maps every offset to a DOM point and back, astral characters and CRLF included (whitespace %s)",
    (whitespace) => {
      const root = renderLines(decorations, whitespace);
      expect(root.textContent).toBe(RAW);
      if (whitespace) expect(root.querySelectorAll("[data-ws]").length).toBeGreaterThan(5);
      for (let offset = 0; offset <= RAW.length; offset++) {
        const point = pointAt(root, offset);
        expect(point).not.toBeNull();
        if (point === null) continue;
        expect(textOffsetOf(root, point.node, point.offset)).toBe(offset);
      }
    },
  );

  it("gives the exact span of a selection inside the root, else null", () => {
    const root = renderLines(decorations, true);
    const selection = window.getSelection();
    const selectRange = (setup: (range: Range) => void) => {
      const range = document.createRange();
      setup(range);
      selection?.removeAllRanges();
      selection?.addRange(range);
      return selectedSpan(root, selection);
    };
    const from = pointAt(root, callStart);
    const to = pointAt(root, callStart + CALL.length);
    if (from === null || to === null) throw new Error("no point");
    expect(
      selectRange((range) => {
        range.setStart(from.node, from.offset);
        range.setEnd(to.node, to.offset);
      }),
    ).toEqual({ start: callStart, end: callStart + CALL.length });
    expect(selectRange((range) => range.setStart(from.node, from.offset))).toBeNull();
    expect(
      selectRange((range) => {
        range.setStart(document.body, 0);
        range.setEnd(to.node, to.offset);
      }),
    ).toBeNull();
    selection?.removeAllRanges();
    expect(selectedSpan(root, selection)).toBeNull();
  });

  it("maps element boundaries (a selection between spans) to the text before them", () => {
    const root = renderLines(decorations);
    expect(textOffsetOf(root, root, 0)).toBe(0);
    expect(textOffsetOf(root, root, root.childNodes.length)).toBe(RAW.length);
    const highlight = root.querySelector("[data-span-highlight]") as HTMLElement;
    expect(textOffsetOf(root, highlight, 0)).toBe(callStart);
    expect(textOffsetOf(document.body, highlight, 0)).not.toBeNull();
    expect(textOffsetOf(highlight, root, 0)).toBeNull();
  });

  it("turns a selection into the event that owns it: innermost first", () => {
    const log = makeLog([RAW]);
    const root = renderLines([]);
    const select = (start: number, end: number) => {
      const range = document.createRange();
      const from = pointAt(root, start);
      const to = pointAt(root, end);
      if (from === null || to === null) throw new Error("no point");
      range.setStart(from.node, from.offset);
      range.setEnd(to.node, to.offset);
      const selection = window.getSelection();
      selection?.removeAllRanges();
      selection?.addRange(range);
      const pick = selectionOffset(root, selection);
      return pick === null ? undefined : eventForPick(log, 0, pick)?.id;
    };
    const emoji = RAW.indexOf("🙂");
    expect(select(emoji, emoji + 2)).toBe("t");
    expect(select(RAW.indexOf("𝒳") + 2, RAW.indexOf("𝒳") + 3)).toBe("t");
    expect(select(callStart + 5, callStart + 9)).toBe("c");
    expect(select(RAW.lastIndexOf("🙂"), RAW.lastIndexOf("🙂"))).toBe("c");
    expect(select(executeStart + 2, executeStart + 4)).toBe("x");
    // Starting in the blank lines between blocks: the first owned character after it.
    expect(select(THINK.length, THINK.length + 6)).toBe("x");
  });
});

describe("RawView", () => {
  Element.prototype.scrollIntoView ??= () => undefined;

  it("selects the event under a click or selection, and marks the linked span", async () => {
    const log = makeLog([
      "<think>héllo 🙂",
      ` wörld\r\nline 𝒳 two</think>\r\n\r\n<exe`,
      RAW.slice(RAW.indexOf("<exe") + 4),
    ]);
    usePlayground.setState({ log, version: log.version, hoveredId: "c", selectedId: null });
    const { container } = render(<RawView />);
    const turn = container.querySelector('[data-raw-turn="0"]');
    const text = turn?.querySelector("[data-raw-text]") as HTMLElement;
    expect(text.textContent).toBe(RAW);
    const marked = [...text.querySelectorAll("[data-span-highlight]")].map(
      (node) => node.textContent,
    );
    expect(marked.join("")).toBe(CALL);

    const point = pointAt(text, RAW.indexOf("wörld"));
    if (point === null) throw new Error("no point");
    const range = document.createRange();
    range.setStart(point.node, point.offset);
    range.setEnd(point.node, point.offset + 3);
    window.getSelection()?.addRange(range);
    act(() => usePlayground.setState({ hoveredId: null }));
    fireEvent.mouseUp(text);
    expect(usePlayground.getState().selectedId).toBe("t");
    expect(usePlayground.getState().selectedTurn).toBe(0);
    const selected = [...text.querySelectorAll('[data-span-highlight="selected"]')].map(
      (node) => node.textContent,
    );
    expect(selected.join("")).toBe(THINK);
  });

  it("links exactly with the gutter and visible whitespace on", () => {
    const log = makeLog([RAW]);
    usePlayground.setState({
      log,
      version: log.version,
      hoveredId: "c",
      selectedId: null,
      rawWhitespace: true,
    });
    const { container } = render(<RawView />);
    const text = container.querySelector('[data-raw-turn="0"] [data-raw-text]') as HTMLElement;
    expect(text.textContent).toBe(RAW);
    expect(text.querySelectorAll("[data-line]")).toHaveLength(RAW.split("\n").length);
    expect(text.querySelectorAll("[data-ws]").length).toBeGreaterThan(5);
    const marked = [...text.querySelectorAll("[data-span-highlight]")].map(
      (node) => node.textContent,
    );
    expect(marked.join("")).toBe(CALL);
    for (let offset = 0; offset <= RAW.length; offset++) {
      const point = pointAt(text, offset);
      if (point === null) throw new Error(`no point at ${offset}`);
      expect(textOffsetOf(text, point.node, point.offset)).toBe(offset);
    }

    act(() => usePlayground.setState({ hoveredId: null }));
    const pick = (start: number, end: number) => {
      const from = pointAt(text, start);
      const to = pointAt(text, end);
      if (from === null || to === null) throw new Error("no point");
      const range = document.createRange();
      range.setStart(from.node, from.offset);
      range.setEnd(to.node, to.offset);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      fireEvent.mouseUp(text);
      return usePlayground.getState().selectedId;
    };
    expect(pick(callStart + 2, callStart + 6)).toBe("c");
    // Starting on the CRLFs between the blocks (drawn as ␍↵): the first owned character after.
    expect(pick(THINK.length, THINK.length + 6)).toBe("x");
    // Just the space before "wörld" (drawn as ·): still that character, in the think block.
    expect(pick(RAW.indexOf("wörld") - 1, RAW.indexOf("wörld"))).toBe("t");
    const selected = [...text.querySelectorAll('[data-span-highlight="selected"]')].map(
      (node) => node.textContent,
    );
    expect(selected.join("")).toBe(THINK);
    act(() => usePlayground.setState({ rawWhitespace: false }));
  });
});
