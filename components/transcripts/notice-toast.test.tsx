// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { usePlayground } from "@/state/playground-store";
import { NoticeToast, quotedTitle } from "./notice-toast";

let undone = 0;
const deleted = () =>
  usePlayground
    .getState()
    .notify({ text: "Deleted.", tone: "info", action: { label: "Undo", run: () => undone++ } });

beforeEach(() => {
  vi.useFakeTimers();
  undone = 0;
  usePlayground.getState().notify(null);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("NoticeToast", () => {
  it("goes after 10 s, but not while the pointer is on it or the focus in it", () => {
    render(<NoticeToast />);
    act(deleted);
    const notice = screen.getByTestId("notice");
    fireEvent.pointerEnter(notice);
    act(() => vi.advanceTimersByTime(30_000));
    expect(screen.queryByTestId("notice")).not.toBeNull();
    fireEvent.pointerLeave(notice);
    act(() => screen.getByRole("button", { name: "Undo" }).focus());
    act(() => vi.advanceTimersByTime(30_000));
    expect(screen.queryByTestId("notice")).not.toBeNull();
    act(() => screen.getByRole("button", { name: "Undo" }).blur());
    act(() => vi.advanceTimersByTime(9_000));
    expect(screen.queryByTestId("notice")).not.toBeNull();
    act(() => vi.advanceTimersByTime(1_000));
    expect(screen.queryByTestId("notice")).toBeNull();
    expect(undone).toBe(0);
  });

  it("a notice after one undone while held goes in its time (nothing holds it)", () => {
    render(<NoticeToast />);
    act(deleted);
    const undo = screen.getByRole("button", { name: "Undo" });
    fireEvent.pointerEnter(screen.getByTestId("notice"));
    act(() => undo.focus());
    fireEvent.click(undo);
    expect(undone).toBe(1);
    act(deleted);
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.queryByTestId("notice")).toBeNull();
  });

  it("a notice dismissed with the pointer on it does not hold the next one", () => {
    render(<NoticeToast />);
    act(deleted);
    fireEvent.pointerEnter(screen.getByTestId("notice"));
    // Clicked away: the element goes, and no pointerleave or blur ever reaches it.
    act(() => screen.getByRole("button", { name: "Dismiss" }).click());
    expect(screen.queryByTestId("notice")).toBeNull();
    act(deleted);
    act(() => vi.advanceTimersByTime(10_000));
    expect(screen.queryByTestId("notice")).toBeNull();
  });

  it("leaves Ctrl+Z to a select, a dialog and whoever handled it first", () => {
    render(
      <>
        <select aria-label="source">
          <option>All</option>
        </select>
        <div role="dialog" aria-label="Settings">
          <button type="button">Close</button>
        </div>
        <NoticeToast />
      </>,
    );
    act(deleted);
    fireEvent.keyDown(screen.getByLabelText("source"), { key: "z", ctrlKey: true });
    fireEvent.keyDown(screen.getByRole("button", { name: "Close" }), { key: "z", ctrlKey: true });
    const handled = new KeyboardEvent("keydown", {
      key: "z",
      ctrlKey: true,
      bubbles: true,
      cancelable: true,
    });
    handled.preventDefault();
    document.body.dispatchEvent(handled);
    expect(undone).toBe(0);
    expect(screen.queryByTestId("notice")).not.toBeNull();
  });

  it("runs its action on Ctrl+Z or ⌘Z, except in a text field, where the key undoes typing", () => {
    render(
      <>
        <textarea aria-label="message" />
        <NoticeToast />
      </>,
    );
    act(deleted);
    fireEvent.keyDown(screen.getByLabelText("message"), { key: "z", ctrlKey: true });
    fireEvent.keyDown(document.body, { key: "z", ctrlKey: true, shiftKey: true });
    expect(undone).toBe(0);
    fireEvent.keyDown(document.body, { key: "z", metaKey: true });
    expect(undone).toBe(1);
    expect(screen.queryByTestId("notice")).toBeNull();
    fireEvent.keyDown(document.body, { key: "z", ctrlKey: true });
    expect(undone).toBe(1);
  });

  it("leaves Ctrl+Z alone for a notice without an action", () => {
    render(<NoticeToast />);
    act(() => usePlayground.getState().notify({ text: "Imported.", tone: "info" }));
    const event = new KeyboardEvent("keydown", {
      key: "z",
      ctrlKey: true,
      bubbles: true,
      cancelable: true,
    });
    document.body.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(screen.queryByTestId("notice")).not.toBeNull();
  });
});

describe("quotedTitle", () => {
  it("quotes a title, cutting one past 80 characters as seen (never inside one)", () => {
    expect(quotedTitle("Short")).toBe('"Short"');
    const long = `${"😀".repeat(79)}${"x".repeat(400)}`;
    const quoted = quotedTitle(long);
    expect([...quoted.slice(1, -1)]).toHaveLength(80);
    expect(quoted).toBe(`"${"😀".repeat(79)}…"`);
    expect(quotedTitle("x".repeat(80))).toBe(`"${"x".repeat(80)}"`);
    // A family emoji (joined by zero-width joiners) and a flag stay whole.
    const family = "👨‍👩‍👧";
    expect(quotedTitle(`${"a".repeat(78)}${family}🇫🇷${"b".repeat(5)}`)).toBe(
      `"${"a".repeat(78)}${family}…"`,
    );
  });
});
