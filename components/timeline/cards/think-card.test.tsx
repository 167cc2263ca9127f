// @vitest-environment jsdom
import { act } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { append, cleanup, loadLog, make, renderCard } from "../testing";

afterEach(cleanup);

const content = (container: HTMLElement) =>
  container.querySelector("[data-testid=think-content]")?.textContent ?? null;

describe("ThinkCard", () => {
  it("is open while it streams, piece by piece, and collapses once a later event exists", () => {
    const think = make.think("The user wants ");
    loadLog([think], { status: "running" });
    const { container } = renderCard(think);
    expect(content(container)).toBe("The user wants ");

    act(() => append(make.think("a list.")));
    expect(content(container)).toBe("The user wants a list.");

    act(() => append(make.call("c1", "list", {})));
    expect(content(container)).toBeNull();
    expect(container.textContent).toContain("The user wants a list.");
  });

  it("keeps the user's choice once they open or close it", () => {
    const think = make.think("Thinking hard.");
    loadLog([think], { status: "running" });
    const { container, getByRole } = renderCard(think);
    act(() => getByRole("button", { name: /thinking/i, expanded: true }).click());
    expect(content(container)).toBeNull();
    act(() => getByRole("button", { name: /thinking/i, expanded: false }).click());
    act(() => append(make.respond("Done.")));
    // A later event would close it, but the user opened it.
    expect(content(container)).toBe("Thinking hard.");
  });
});
