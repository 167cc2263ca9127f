// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { usePlayground } from "@/state/playground-store";
import { useRunConnection } from "@/state/run-connection";
import { RunStatusLine } from "./run-status-line";

afterEach(() => {
  cleanup();
  usePlayground.setState({ status: "idle" });
  useRunConnection.setState({ cut: null });
});

describe("RunStatusLine", () => {
  it("says the page is reconnecting while the run's stream is cut, then running again", () => {
    usePlayground.setState({ status: "running" });
    render(<RunStatusLine />);
    expect(screen.getByTestId("run-status").textContent).toBe("Running…");
    act(() => useRunConnection.setState({ cut: "the server could not be reached" }));
    expect(screen.getByTestId("run-status").textContent).toBe(
      "Reconnecting… (the server could not be reached)",
    );
    act(() => useRunConnection.setState({ cut: null }));
    expect(screen.getByTestId("run-status").textContent).toBe("Running…");
  });
});
