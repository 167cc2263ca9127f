// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { usePlayground } from "@/state/playground-store";
import { useActiveRuns } from "./running-indicator";

function Watcher() {
  useActiveRuns();
  return null;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const meta = {
  id: "t1",
  title: "hello",
  createdAt: 0,
  updatedAt: 0,
  dialect: "xml",
  model: { provider: "demo", id: "scripted" },
};

describe("useActiveRuns", () => {
  it("reads a conversation back on return to the tab once its run failed here (the server was down)", async () => {
    const fetch = vi.fn(async (url: string) =>
      url.startsWith("/api/runs")
        ? Response.json({ runs: [] })
        : Response.json({ meta, records: [], recordCount: 0 }),
    );
    vi.stubGlobal("fetch", fetch);
    usePlayground.getState().newConversation();
    usePlayground.setState({ transcriptId: "t1", transcript: null, status: "failed" });
    render(<Watcher />);
    window.dispatchEvent(new Event("focus"));
    await vi.waitFor(() => expect(usePlayground.getState().transcript?.meta.title).toBe("hello"));
  });

  it("leaves a conversation that is still opening to its own reads", async () => {
    const fetch = vi.fn(async (_url: string) => Response.json({ runs: [] }));
    vi.stubGlobal("fetch", fetch);
    usePlayground.getState().newConversation();
    usePlayground.setState({ transcriptId: "t1", transcript: null, status: "idle" });
    render(<Watcher />);
    window.dispatchEvent(new Event("focus"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(
      fetch.mock.calls.map(([url]) => url).filter((url) => !String(url).startsWith("/api/runs")),
    ).toEqual([]);
  });
});
