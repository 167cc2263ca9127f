// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CodeView } from "./code-view";
import { jsonHighlighterLoaded, loadJsonHighlighter } from "./json-highlighter";
import { noteScroll } from "./scroll-activity";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const JSON_TEXT = '{\n  "expression": "2+2"\n}';

const coloured = (container: HTMLElement) =>
  [...container.querySelectorAll<HTMLElement>("code span[style]")].find(
    (token) => token.textContent === '"expression"',
  );

describe("CodeView", () => {
  // First: the highlighter is a module-level singleton, loaded once for the whole file.
  it("loads the highlighter when a JSON view first wants it, plain until then, same text after", async () => {
    expect(jsonHighlighterLoaded()).toBe(false);
    const { container } = render(
      <CodeView text={JSON_TEXT} json memoryKey="k0" label="Arguments" />,
    );
    expect(coloured(container)).toBeUndefined();
    expect(container.querySelector("pre")?.textContent).toBe(JSON_TEXT);
    await act(async () => {
      expect(await loadJsonHighlighter()).toBe(true);
    });
    expect(coloured(container)?.style.getPropertyValue("--shiki-dark")).toMatch(/^#/);
    expect(container.querySelector("pre")?.textContent).toBe(JSON_TEXT);
  });

  it("mounted while the timeline scrolls: the JSON shows plain until it settles, then coloured", () => {
    vi.useFakeTimers();
    noteScroll();
    const { container } = render(
      <CodeView text={JSON_TEXT} json memoryKey="k" label="Arguments" />,
    );
    expect(container.querySelector("code span[style]")).toBeNull();
    expect(container.querySelector("pre")?.textContent).toBe(JSON_TEXT);
    act(() => vi.runAllTimers());
    expect(coloured(container)?.style.getPropertyValue("--shiki-dark")).toMatch(/^#/);
    expect(container.querySelector("pre")?.textContent).toBe(JSON_TEXT);
  });
});
