// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { usePlayground } from "@/state/playground-store";
import { EmptyState } from "./empty-state";

vi.mock("@/hooks/use-server-config", () => ({
  useServerConfig: () => ({ demo: { examples: ["list the files"], scenarios: [] } }),
}));

afterEach(() => {
  cleanup();
  usePlayground.setState({ opening: null });
});

describe("EmptyState", () => {
  it("says a saved transcript is being opened, then gives way to the intro", () => {
    usePlayground.setState({ opening: "t1" });
    render(<EmptyState />);
    expect(screen.getByRole("status").textContent).toBe("Opening the transcript…");
    expect(screen.queryByText("list the files")).toBeNull();
    act(() => usePlayground.setState({ opening: null }));
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getByText("list the files")).toBeTruthy();
  });
});
