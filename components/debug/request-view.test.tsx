// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunLog } from "@/lib/client/run-log";
import { usePlayground } from "@/state/playground-store";
import { estimateTokens, messageView } from "./request-content";
import { RequestView } from "./request-view";

afterEach(cleanup);

function logWithRequests(): RunLog {
  const log = new RunLog();
  const system = { role: "system", content: "Protocol (xml):\n- <think>…</think>" };
  log.apply({
    kind: "request",
    turn: 0,
    t: 1,
    provider: "demo",
    model: "scripted",
    settings: {},
    messages: [system, { role: "user", content: "list the files" }],
  });
  log.apply({
    kind: "request",
    turn: 1,
    t: 90.5,
    provider: "demo",
    model: "scripted",
    settings: { temperature: 0.2 },
    messages: [
      system,
      { role: "user", content: "list the files" },
      { role: "assistant", content: [{ type: "text", text: "<execute>[]</execute>" }] },
      { role: "user", content: "<results>\n[]\n</results>" },
    ],
  });
  return log;
}

describe("request messages", () => {
  it("reads string content, text parts and other parts", () => {
    expect(messageView({ role: "user", content: "hi" })).toEqual({ role: "user", text: "hi" });
    expect(
      messageView({
        role: "assistant",
        content: [
          { type: "text", text: "a" },
          { type: "tool-call", id: 1 },
        ],
      }).text,
    ).toBe('a\n{\n  "type": "tool-call",\n  "id": 1\n}');
    expect(messageView(null).role).toBe("unknown");
    expect(estimateTokens("12345")).toBe(2);
  });
});

describe("RequestView", () => {
  it("shows the latest turn's request by default, messages by role, and follows the picked turn", async () => {
    const log = logWithRequests();
    usePlayground.setState({ log, version: log.version, selectedTurn: null });
    const { container } = render(<RequestView />);
    expect(container.querySelector("[data-request-view]")?.getAttribute("data-request-view")).toBe(
      "1",
    );
    const roles = [...container.querySelectorAll("[data-request-message]")].map((node) =>
      node.getAttribute("data-request-message"),
    );
    expect(roles).toEqual(["system", "user", "assistant", "user"]);
    expect(container.textContent).toContain("<results>");
    expect(container.textContent).toContain('{"temperature":0.2}');
    // The system prompt starts collapsed; opening it shows the protocol.
    fireEvent.click(screen.getByRole("button", { name: /^system message/ }));
    expect(container.textContent).toContain("Protocol (xml):");

    fireEvent.click(screen.getByRole("button", { name: "turn 0" }));
    expect(usePlayground.getState().selectedTurn).toBe(0);
    expect(container.querySelectorAll("[data-request-message]")).toHaveLength(2);
  });

  it("copies the request as JSON and says so", async () => {
    const log = logWithRequests();
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, "clipboard", { configurable: true, value: { writeText } });
    usePlayground.setState({ log, version: log.version, selectedTurn: 0 });
    render(<RequestView />);
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Copy as JSON" })));
    expect(JSON.parse(writeText.mock.calls[0]?.[0] ?? "").turn).toBe(0);
    expect(screen.getByRole("button", { name: /Copied/ })).toBeTruthy();
  });

  it("a long conversation's turns are a list with previous / next, not a button each", () => {
    const log = new RunLog();
    for (let turn = 0; turn < 120; turn++)
      log.apply({
        kind: "request",
        turn,
        t: turn,
        provider: "demo",
        model: "scripted",
        settings: {},
        messages: [{ role: "user", content: `message ${turn}` }],
      });
    usePlayground.setState({ log, version: log.version, selectedTurn: null });
    const { container } = render(<RequestView />);
    expect(screen.queryAllByRole("button", { name: /^turn \d+$/ })).toHaveLength(0);
    const list = screen.getByRole("combobox", { name: "Model turn" }) as HTMLSelectElement;
    expect(list.options).toHaveLength(120);
    expect(list.value).toBe("119");
    expect(container.textContent).toContain("120 of 120");
    const next = screen.getByRole("button", { name: "Next turn" });
    expect(next.getAttribute("aria-disabled")).toBe("true");
    // Pressed at the last turn, it does nothing and keeps the focus.
    next.focus();
    fireEvent.click(next);
    expect(usePlayground.getState().selectedTurn).toBe(null);
    expect(document.activeElement).toBe(next);

    fireEvent.click(screen.getByRole("button", { name: "Previous turn" }));
    expect(usePlayground.getState().selectedTurn).toBe(118);
    fireEvent.change(list, { target: { value: "7" } });
    expect(usePlayground.getState().selectedTurn).toBe(7);
    expect(container.querySelector("[data-request-view]")?.getAttribute("data-request-view")).toBe(
      "7",
    );
    expect(container.textContent).toContain("message 7");
    fireEvent.click(screen.getByRole("button", { name: "Next turn" }));
    expect(usePlayground.getState().selectedTurn).toBe(8);
  });
});
