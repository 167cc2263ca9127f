// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { usePlayground } from "@/state/playground-store";
import { newConversation, openTranscript, switchDialect } from "./navigation";

afterEach(() => vi.unstubAllGlobals());

describe("switchDialect", () => {
  it("with a conversation open: starts a new one and says what happened, with a way back", async () => {
    usePlayground.setState({ transcriptId: "t1", dialect: "xml", transcript: null, notice: null });
    switchDialect("delimiter");
    const state = usePlayground.getState();
    expect(state).toMatchObject({ transcriptId: null, dialect: "delimiter" });
    expect(state.notice?.text).toBe(
      'New conversation in delimiter. "The conversation" stays in xml: open it and use Fork… to go on in delimiter.',
    );
    expect(state.notice?.action?.label).toBe("Back to it");
    const fetch = vi.fn(async (url: string) =>
      url.startsWith("/api/runs")
        ? Response.json({ runs: [] })
        : Response.json({ error: "gone" }, { status: 404 }),
    );
    vi.stubGlobal("fetch", fetch);
    state.notice?.action?.run();
    // Opening loads the transcript's tail (and asks which runs are live, to reattach).
    await vi.waitFor(() =>
      expect(fetch).toHaveBeenCalledWith("/api/transcripts/t1?limit=2000&from=end"),
    );
  });

  it("with nothing open: only picks the dialect, without a notice", () => {
    usePlayground.setState({ transcriptId: null, dialect: "xml", notice: null });
    switchDialect("action");
    expect(usePlayground.getState()).toMatchObject({ dialect: "action", notice: null });
  });
});

describe("openTranscript", () => {
  it("shows the tail as soon as it arrives, before the live runs are known", async () => {
    usePlayground.getState().newConversation();
    const meta = { id: "t2", title: "t2", dialect: "xml", model: { provider: "demo", id: "demo" } };
    const records = [
      {
        kind: "event",
        event: { type: "user", id: "u1", timestamp: 0, content: "hi" },
        seq: 1,
        runId: "r",
      },
    ];
    const fetch = vi.fn((url: string) =>
      url.startsWith("/api/runs")
        ? new Promise<Response>(() => {})
        : Promise.resolve(Response.json({ meta, records, recordCount: 1 })),
    );
    vi.stubGlobal("fetch", fetch);
    void openTranscript("t2", false);
    await vi.waitFor(() => expect(usePlayground.getState().transcript?.meta.id).toBe("t2"));
    expect(usePlayground.getState().log.get("u1")).toBeDefined();
    expect(fetch).toHaveBeenCalledWith("/api/runs?active=1");
    expect(fetch).toHaveBeenCalledWith("/api/transcripts/t2?limit=2000&from=end");
  });

  it("says it is opening while the tail is read, and not after a new conversation took over", async () => {
    usePlayground.getState().newConversation();
    let answer: (response: Response) => void = () => {};
    const fetch = vi.fn((url: string) =>
      url.startsWith("/api/runs")
        ? Promise.resolve(Response.json({ runs: [] }))
        : new Promise<Response>((resolve) => {
            answer = resolve;
          }),
    );
    vi.stubGlobal("fetch", fetch);
    const opened = openTranscript("t3", false);
    expect(usePlayground.getState().opening).toBe("t3");
    answer(Response.json({ error: "gone" }, { status: 404 }));
    expect(await opened).toBe(false);
    expect(usePlayground.getState().opening).toBeNull();
    // A second open, left by the user for a new conversation before it is read.
    void openTranscript("t4", false);
    expect(usePlayground.getState().opening).toBe("t4");
    newConversation();
    expect(usePlayground.getState().opening).toBeNull();
  });
});
