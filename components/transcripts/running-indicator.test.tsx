// @vitest-environment jsdom
import { cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RunLog } from "@/lib/client/run-log";
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

  it("never folds a run's records into the view twice: after a run here only the stored copy is read", async () => {
    const first = { seq: 1, runId: "a", kind: "chunk", turn: 0, t: 0, text: "first " } as const;
    const second = { seq: 2, runId: "b", kind: "chunk", turn: 1, t: 0, text: "second" } as const;
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) =>
        url.startsWith("/api/runs")
          ? Response.json({ runs: [] })
          : Response.json({ meta, records: [second], recordCount: 2 }),
      ),
    );
    // The second run streamed here, then its stream broke off before the stored copy was read.
    const log = new RunLog();
    log.transcriptId = "t1";
    log.apply(first);
    log.applyRun("t1", "b");
    log.apply(second);
    usePlayground.setState({
      transcriptId: "t1",
      transcript: { meta, records: [{ ...first }], recordCount: 1 } as never,
      status: "failed",
      log,
      version: log.version,
    });
    render(<Watcher />);
    window.dispatchEvent(new Event("focus"));
    await vi.waitFor(() => expect(usePlayground.getState().transcript?.records).toHaveLength(2));
    expect(usePlayground.getState().log.turns.get(1)?.raw).toBe("second");
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

  it("reads the list again on return to the tab: a conversation made meanwhile shows in the sidebar", async () => {
    // An agent's captured call through the proxy that began and ended between two polls of the
    // running runs: no poll saw it, so only the return to the tab can bring it into the list.
    vi.stubGlobal(
      "fetch",
      vi.fn(async (_url: string) => Response.json({ runs: [] })),
    );
    usePlayground.getState().newConversation();
    render(<Watcher />);
    const before = usePlayground.getState().listVersion;
    window.dispatchEvent(new Event("focus"));
    expect(usePlayground.getState().listVersion).toBe(before + 1);
  });
});
