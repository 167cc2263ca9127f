// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RunLog } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { EventsView } from "./events-view";
import { filterEvents, toggleType } from "./filter-events";
import { stubLayout } from "./test-layout";

stubLayout();

const EVENTS: ProtocolEvent[] = [
  { type: "user", id: "u", timestamp: 0, content: "hi" },
  { type: "think", id: "t", timestamp: 0, turn: 0, span: { start: 0, end: 5 }, content: "a" },
  { type: "think", id: "t", timestamp: 0, turn: 0, span: { start: 5, end: 9 }, content: "b" },
  { type: "respond", id: "r", timestamp: 0, turn: 0, span: { start: 9, end: 20 }, content: "ok" },
  {
    type: "error",
    id: "e",
    timestamp: 0,
    code: "stray_text",
    message: "m",
    turn: 0,
    span: { start: 20, end: 21 },
  },
];

afterEach(cleanup);

describe("event filter", () => {
  it("toggles types: solo from all, add, remove, back to all", () => {
    expect(toggleType(null, "think")).toEqual(["think"]);
    expect(toggleType(["think"], "error")).toEqual(["think", "error"]);
    expect(toggleType(["think", "error"], "think")).toEqual(["error"]);
    expect(toggleType(["error"], "error")).toBeNull();
    expect(filterEvents(EVENTS, ["think"]).map((event) => event.id)).toEqual(["t", "t"]);
    expect(filterEvents(EVENTS, null)).toBe(EVENTS);
  });

  it("filters the Events list by the chips and links rows to the store", () => {
    const log = new RunLog();
    for (const event of EVENTS) log.apply({ kind: "event", event });
    usePlayground.setState({ log, version: log.version, eventFilter: null, selectedId: null });
    const { container } = render(<EventsView />);
    const rows = () =>
      [...container.querySelectorAll("[data-row-id]")].map((row) =>
        row.getAttribute("data-row-id"),
      );
    // Pieces merged by id: one think row, its content joined.
    expect(rows()).toEqual(["u", "t", "r", "e"]);
    expect(container.querySelector('[data-row-id="t"]')?.textContent).toContain("ab");

    fireEvent.click(screen.getByRole("button", { name: /^think/ }));
    expect(usePlayground.getState().eventFilter).toEqual(["think"]);
    expect(rows()).toEqual(["t"]);
    fireEvent.click(screen.getByRole("button", { name: /^error/ }));
    expect(rows()).toEqual(["t", "e"]);
    fireEvent.click(screen.getByRole("button", { name: "all" }));
    expect(rows()).toEqual(["u", "t", "r", "e"]);

    const think = container.querySelector('[data-row-id="t"]') as HTMLElement;
    fireEvent.mouseEnter(think);
    expect(usePlayground.getState().hoveredId).toBe("t");
    fireEvent.click(think);
    expect(usePlayground.getState().selectedId).toBe("t");
    expect(think.getAttribute("aria-selected")).toBe("true");
  });
});
