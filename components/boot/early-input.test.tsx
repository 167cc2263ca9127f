// @vitest-environment jsdom
import { act } from "@testing-library/react";
import { useState } from "react";
import { hydrateRoot, type Root } from "react-dom/client";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EARLY_INPUT_SCRIPT, replayEarlyInput } from "./early-input";

/** A message box and its Send (disabled while empty), a toggle and a key shortcut, as the page has them. */
function Page({ sent }: { sent: string[] }) {
  const [text, setText] = useState("");
  const [on, setOn] = useState(false);
  const [keys, setKeys] = useState("");
  return (
    <div>
      <button type="button" aria-pressed={on} onClick={() => setOn(!on)}>
        Toggle
      </button>
      <p tabIndex={-1} onKeyDown={(event) => setKeys(keys + event.key)} data-testid="keys">
        {keys}
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          sent.push(text);
          setText("");
        }}
      >
        <textarea
          aria-label="Message"
          value={text}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !event.shiftKey) {
              event.preventDefault();
              event.currentTarget.form?.requestSubmit();
            }
          }}
          data-enter-submits=""
        />
        <button
          type="submit"
          disabled={text.trim() === ""}
          data-needs-text=""
          suppressHydrationWarning
        >
          Send
        </button>
      </form>
    </div>
  );
}

let container: HTMLElement;
let root: Root | undefined;
const sent: string[] = [];

beforeEach(() => {
  sent.length = 0;
  container = document.createElement("div");
  container.innerHTML = renderToString(<Page sent={sent} />);
  document.body.append(container);
  new Function(EARLY_INPUT_SCRIPT)();
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  container.remove();
  window.__wirescopeEarlyInput?.();
});

const button = (name: string) =>
  [...container.querySelectorAll("button")].find(
    (candidate) => candidate.textContent === name,
  ) as HTMLButtonElement;
const message = () => container.querySelector("textarea") as HTMLTextAreaElement;

/** What a user's typing does to a field: its value, then an input event. */
function type(field: HTMLTextAreaElement, text: string) {
  field.value = text;
  field.dispatchEvent(new Event("input", { bubbles: true }));
}

async function hydrate() {
  await act(async () => {
    root = hydrateRoot(container, <Page sent={sent} />);
  });
  await act(() => replayEarlyInput());
}

describe("input made before hydration", () => {
  it("a click on a control is held, marked, and done once the page has hydrated", async () => {
    const clicked = new MouseEvent("click", { bubbles: true, cancelable: true });
    button("Toggle").dispatchEvent(clicked);
    expect(clicked.defaultPrevented).toBe(true);
    expect(document.documentElement.hasAttribute("data-early-click")).toBe(true);
    expect(document.documentElement.hasAttribute("data-early-input")).toBe(true);
    await hydrate();
    expect(button("Toggle").getAttribute("aria-pressed")).toBe("true");
    expect(document.documentElement.hasAttribute("data-early-click")).toBe(false);
    expect(document.documentElement.hasAttribute("data-early-input")).toBe(false);
  });

  it("text typed reaches the page's state, and Send, enabled by it, sends it", async () => {
    type(message(), "hello there");
    expect(button("Send").disabled).toBe(false);
    button("Send").click();
    await hydrate();
    expect(sent).toEqual(["hello there"]);
    expect(message().value).toBe("");
  });

  it("Enter in the message box sends what was typed before it", async () => {
    type(message(), "first");
    const enter = new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true });
    message().dispatchEvent(enter);
    expect(enter.defaultPrevented).toBe(true);
    await hydrate();
    expect(sent).toEqual(["first"]);
  });

  it("a shortcut key pressed outside a field is handed on; Shift+Enter and keys in a field are not", async () => {
    const keys = container.querySelector("[data-testid=keys]") as HTMLElement;
    keys.dispatchEvent(new KeyboardEvent("keydown", { key: "d", bubbles: true }));
    const newline = new KeyboardEvent("keydown", {
      key: "Enter",
      shiftKey: true,
      bubbles: true,
      cancelable: true,
    });
    message().dispatchEvent(newline);
    expect(newline.defaultPrevented).toBe(false);
    await hydrate();
    expect(keys.textContent).toBe("d");
    expect(sent).toEqual([]);
  });

  it("text typed after hydration, before the held text is handed on, is kept", async () => {
    type(message(), "hello");
    await act(async () => {
      root = hydrateRoot(container, <Page sent={sent} />);
    });
    await act(async () => {
      const replay = replayEarlyInput();
      // Typed once the page listens, a task before the held text is handed on: the browser
      // sets the field's text past React's tracker, as typing does.
      const field = message();
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")?.set?.call(
        field,
        "hello!",
      );
      field.dispatchEvent(new Event("input", { bubbles: true }));
      await replay;
    });
    expect(message().value).toBe("hello!");
    button("Send").click();
    await act(async () => undefined);
    expect(sent).toEqual(["hello!"]);
  });

  it("a page script that fails to load ends the hold: nothing says a click follows, clicks go through", async () => {
    const clicked = new MouseEvent("click", { bubbles: true, cancelable: true });
    button("Toggle").dispatchEvent(clicked);
    expect(document.documentElement.hasAttribute("data-early-click")).toBe(true);
    const script = document.createElement("script");
    document.head.append(script);
    // As a browser reports a script it could not load: at the element, not bubbling.
    script.dispatchEvent(new Event("error"));
    script.remove();
    expect(document.documentElement.hasAttribute("data-early-click")).toBe(false);
    expect(document.documentElement.hasAttribute("data-early-input")).toBe(false);
    const later = new MouseEvent("click", { bubbles: true, cancelable: true });
    button("Toggle").dispatchEvent(later);
    expect(later.defaultPrevented).toBe(false);
    // An image that fails is no page script: the hold goes on.
    new Function(EARLY_INPUT_SCRIPT)();
    const image = document.createElement("img");
    document.body.append(image);
    image.dispatchEvent(new Event("error"));
    image.remove();
    expect(document.documentElement.hasAttribute("data-early-input")).toBe(true);
  });

  it("after the hand-over, clicks go to the page as usual, once", async () => {
    await hydrate();
    act(() => button("Toggle").click());
    expect(button("Toggle").getAttribute("aria-pressed")).toBe("true");
  });
});
