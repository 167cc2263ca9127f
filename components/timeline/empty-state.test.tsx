// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RouteTranscript, UrlSync } from "@/components/transcripts/url-sync";
import { usePlayground } from "@/state/playground-store";
import { EmptyState } from "./empty-state";

const { openTranscript } = vi.hoisted(() => ({
  openTranscript: vi.fn<(id: string, push?: boolean) => Promise<boolean>>(),
}));
vi.mock("@/components/transcripts/navigation", () => ({
  openTranscript,
  cancelOpen: () => {},
  newConversation: () => {},
  idFromPath: () => null,
  transcriptPath: (id: string) => `/t/${id}`,
}));

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

  it("says so from the server's HTML of a transcript's URL, until the page has opened it", async () => {
    const page = (
      <RouteTranscript value="t1">
        <EmptyState />
      </RouteTranscript>
    );
    // What a slow network shows until the scripts run: not the blank intro.
    expect(renderToString(page)).toContain("Opening the transcript…");
    expect(renderToString(<EmptyState />)).not.toContain("Opening the transcript…");
    let settle = () => {};
    const opened = new Promise<boolean>((resolve) => {
      settle = () => resolve(false);
    });
    openTranscript.mockReturnValueOnce(opened);
    render(
      <>
        {page}
        <UrlSync initialId="t1" />
      </>,
    );
    expect(screen.getByRole("status").textContent).toBe("Opening the transcript…");
    // The id named nothing (a toast says so): the intro, not "Opening…" for good.
    await act(async () => {
      settle();
      await opened;
    });
    expect(screen.queryByRole("status")).toBeNull();
    expect(screen.getByText("list the files")).toBeTruthy();
  });
});
