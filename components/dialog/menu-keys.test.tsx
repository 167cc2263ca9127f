// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useRef } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { onMenuKeyDown, useFocusFirstItem } from "./menu-keys";

function Menu({ open }: { open: boolean }) {
  const menu = useRef<HTMLDivElement>(null);
  useFocusFirstItem(open, menu);
  return open ? (
    <div ref={menu} role="menu" onKeyDown={onMenuKeyDown}>
      <a role="menuitem" href="#one">
        one
      </a>
      <button type="button" role="menuitem" disabled>
        off
      </button>
      <input type="checkbox" role="menuitemcheckbox" aria-label="two" aria-checked={false} />
      <p>not an item</p>
      <button type="button" role="menuitem">
        three
      </button>
    </div>
  ) : null;
}

afterEach(cleanup);

const press = (key: string) => fireEvent.keyDown(document.activeElement as Element, { key });

describe("menu keys", () => {
  it("open, the first item has the focus; the arrows go round the items, past disabled ones", () => {
    const { rerender } = render(<Menu open={false} />);
    rerender(<Menu open />);
    expect(document.activeElement).toBe(screen.getByText("one"));
    press("ArrowDown");
    expect(document.activeElement).toBe(screen.getByLabelText("two"));
    press("ArrowDown");
    expect(document.activeElement).toBe(screen.getByText("three"));
    press("ArrowDown");
    expect(document.activeElement).toBe(screen.getByText("one"));
    press("ArrowUp");
    expect(document.activeElement).toBe(screen.getByText("three"));
    press("Home");
    expect(document.activeElement).toBe(screen.getByText("one"));
    press("End");
    expect(document.activeElement).toBe(screen.getByText("three"));
  });

  it("leaves other keys alone", () => {
    render(<Menu open />);
    const event = new KeyboardEvent("keydown", { key: "a", bubbles: true, cancelable: true });
    screen.getByText("one").dispatchEvent(event);
    expect(event.defaultPrevented).toBe(false);
    expect(document.activeElement).toBe(screen.getByText("one"));
  });
});
