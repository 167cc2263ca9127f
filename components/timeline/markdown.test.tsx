// @vitest-environment jsdom
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(cleanup);

describe("Markdown", () => {
  it("shows the text plain until the renderer's chunk has loaded, then parses it", async () => {
    // A fresh module: the renderer is not loaded yet, as on a page's first paint.
    vi.resetModules();
    const { Markdown } = await import("./markdown");
    const { container } = render(<Markdown text={"**bold** and `code`"} />);
    expect(container.querySelector("strong")).toBeNull();
    expect(container.textContent).toBe("**bold** and `code`");
    expect((await screen.findByText("bold")).tagName).toBe("STRONG");
    expect(container.querySelector("code")?.textContent).toBe("code");
  });

  it("names a task list's boxes, which have no label of their own", async () => {
    const { Markdown } = await import("./markdown");
    render(<Markdown text={"- [ ] to do\n- [x] done already"} />);
    const boxes = await screen.findAllByRole("checkbox");
    expect(boxes.map((box) => box.getAttribute("aria-label"))).toEqual(["not done", "done"]);
    expect(boxes.every((box) => (box as HTMLInputElement).disabled)).toBe(true);
  });
});
