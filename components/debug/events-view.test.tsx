// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RunLog } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { EventsView } from "./events-view";
import { nextExpansion, rowAfterKey } from "./table-keys";
import { stubLayout } from "./test-layout";

stubLayout();
afterEach(cleanup);

const EVENTS: ProtocolEvent[] = [
  { type: "user", id: "u", timestamp: 1000, content: "list the files" },
  {
    type: "think",
    id: "t",
    timestamp: 1100,
    turn: 0,
    span: { start: 0, end: 30 },
    content: "I'll list.",
  },
  {
    type: "call",
    id: "c",
    timestamp: 1310,
    turn: 0,
    span: { start: 30, end: 75 },
    call: { id: "call-1", name: "list", args: { path: "." } },
  },
  {
    type: "result",
    id: "res",
    timestamp: 1400,
    callId: "call-1",
    payload: { tool: "list", status: "success", content: [], outcome: "Listed 0", durationMs: 3 },
  },
];

function setup() {
  const log = new RunLog();
  for (const event of EVENTS) log.apply({ kind: "event", event });
  log.apply({ kind: "chunk", turn: 0, t: 0, text: "<think>I'll list.</think>" });
  usePlayground.setState({ log, version: log.version, eventFilter: null, selectedId: null });
  const view = render(<EventsView />);
  const row = (id: string) => view.container.querySelector(`[data-row-id="${id}"]`) as HTMLElement;
  return { ...view, row, list: screen.getByTestId("events-view") };
}

describe("EventsView table", () => {
  it("shows one compact row per event: type, name, turn, span, time since the first", () => {
    const { row } = setup();
    const cells = (id: string) =>
      [...(row(id).firstElementChild?.children ?? [])].map((cell) => cell.textContent);
    expect(cells("c")).toEqual(["▸call", "list", "0", "30–75", "+0.31 s"]);
    expect(cells("res")).toEqual(["▸result", "list · success", "", "", "+0.40 s"]);
    expect(cells("u")).toEqual(["▸user", "list the files", "", "", "+0.00 s"]);
    // No JSON until a row is expanded.
    expect(row("c").textContent).not.toContain('"args"');
  });

  it("is one tab stop: arrows move the selection, Enter shows and hides the JSON", () => {
    const { row, list, container } = setup();
    expect(list.tabIndex).toBe(0);
    const rows = [...container.querySelectorAll("[role=option]")] as HTMLElement[];
    expect(rows.every((option) => option.tabIndex === -1)).toBe(true);

    act(() => fireEvent.keyDown(list, { key: "ArrowDown" }));
    expect(usePlayground.getState().selectedId).toBe("u");
    act(() => fireEvent.keyDown(list, { key: "ArrowDown" }));
    act(() => fireEvent.keyDown(list, { key: "ArrowDown" }));
    expect(usePlayground.getState()).toMatchObject({ selectedId: "c", selectedTurn: 0 });
    expect(list.getAttribute("aria-activedescendant")).toBe(row("c").id);
    expect(row("c").getAttribute("aria-selected")).toBe("true");

    act(() => fireEvent.keyDown(list, { key: "Enter" }));
    expect(row("c").textContent).toContain('"args":{"path":"."}');
    act(() => fireEvent.keyDown(list, { key: "Enter" }));
    expect(row("c").textContent).not.toContain('"args"');
    act(() => fireEvent.keyDown(list, { key: "End" }));
    expect(usePlayground.getState().selectedId).toBe("res");
    act(() => fireEvent.keyDown(list, { key: "ArrowUp" }));
    expect(usePlayground.getState().selectedId).toBe("c");
  });

  it("clicking the chevron expands a row; Raw beside shows the raw text next to the table", () => {
    const { row } = setup();
    act(() => (row("t").querySelector("button") as HTMLElement).click());
    expect(row("t").textContent).toContain('"content": "I\'ll list."');
    expect(screen.queryByTestId("events-with-raw")).toBeNull();
    act(() => screen.getByRole("button", { name: "Raw beside" }).click());
    const split = screen.getByTestId("events-with-raw");
    expect(split.textContent).toContain("I'll list.</think>");
    expect(split.querySelector("[data-testid=events-view]")).not.toBeNull();
  });
});

describe("table keys", () => {
  it("moves within bounds, and from no row to the first or last", () => {
    expect(rowAfterKey("ArrowDown", -1, 5)).toBe(0);
    expect(rowAfterKey("ArrowUp", -1, 5)).toBe(4);
    expect(rowAfterKey("ArrowDown", 4, 5)).toBe(4);
    expect(rowAfterKey("ArrowUp", 0, 5)).toBe(0);
    expect(rowAfterKey("PageDown", 1, 5)).toBe(4);
    expect(rowAfterKey("Home", 3, 5)).toBe(0);
    expect(rowAfterKey("a", 3, 5)).toBeNull();
    expect(rowAfterKey("ArrowDown", -1, 0)).toBeNull();
  });

  it("Enter cycles a row: JSON, all of a long one, closed", () => {
    expect(nextExpansion(false, false, true)).toBe("json");
    expect(nextExpansion(true, false, true)).toBe("full");
    expect(nextExpansion(true, true, true)).toBe("collapsed");
    expect(nextExpansion(true, false, false)).toBe("collapsed");
  });
});
