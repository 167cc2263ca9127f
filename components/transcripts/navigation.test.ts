// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { usePlayground } from "@/state/playground-store";
import { switchDialect } from "./navigation";

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
    // Opening asks which runs are live first (to reattach), then loads the transcript's tail.
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
