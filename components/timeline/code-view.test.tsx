// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CodeView } from "./code-view";
import { noteScroll } from "./scroll-activity";

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const JSON_TEXT = '{\n  "expression": "2+2"\n}';

describe("CodeView", () => {
  it("mounted while the timeline scrolls: the JSON shows plain until it settles, then coloured", () => {
    vi.useFakeTimers();
    noteScroll();
    const { container } = render(
      <CodeView text={JSON_TEXT} json memoryKey="k" label="Arguments" />,
    );
    expect(container.querySelector("code span[style]")).toBeNull();
    expect(container.querySelector("pre")?.textContent).toBe(JSON_TEXT);
    act(() => vi.runAllTimers());
    const key = [...container.querySelectorAll<HTMLElement>("code span[style]")].find(
      (token) => token.textContent === '"expression"',
    );
    expect(key?.style.getPropertyValue("--shiki-dark")).toMatch(/^#/);
    expect(container.querySelector("pre")?.textContent).toBe(JSON_TEXT);
  });
});
