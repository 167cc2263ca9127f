// @vitest-environment jsdom
import { act, cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { usePlayground } from "@/state/playground-store";
import { newConversation, openTranscript } from "./navigation";
import { routePending } from "./route-opening";
import { UrlSync } from "./url-sync";

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const meta = (id: string) => ({
  id,
  title: id,
  dialect: "xml",
  model: { provider: "demo", id: "demo" },
});

/** `fetch` answering each transcript's tail when the test says (`answer(id)`). */
function slowTails() {
  const waiting = new Map<string, () => void>();
  const fetch = vi.fn(
    (url: string) =>
      new Promise<Response>((resolve) => {
        if (url.startsWith("/api/runs")) return resolve(Response.json({ runs: [] }));
        const id = /\/api\/transcripts\/([^?]+)/.exec(url)?.[1] ?? "";
        waiting.set(id, () =>
          resolve(Response.json({ meta: meta(id), records: [], recordCount: 0 })),
        );
      }),
  );
  vi.stubGlobal("fetch", fetch);
  return { answer: (id: string) => waiting.get(id)?.() };
}

describe("the page's own transcript and its history", () => {
  it("stops saying 'Opening…' for the URL's transcript once a new conversation takes over", () => {
    expect(routePending()).toBe(true);
    newConversation();
    expect(routePending()).toBe(false);
  });

  it("Back during a slow open goes back: the read still going is not shown over it", async () => {
    const tails = slowTails();
    render(<UrlSync />);
    window.history.replaceState(null, "", "/t/A");
    const openedA = openTranscript("A", false);
    tails.answer("A");
    await openedA;
    expect(usePlayground.getState().transcriptId).toBe("A");
    // A click on B (its read slow), then Back at once.
    const openedB = openTranscript("B");
    expect(window.location.pathname).toBe("/t/B");
    window.history.replaceState(null, "", "/t/A");
    act(() => window.dispatchEvent(new PopStateEvent("popstate")));
    tails.answer("B");
    await openedB;
    expect(usePlayground.getState().transcriptId).toBe("A");
    expect(window.location.pathname).toBe("/t/A");
    expect(usePlayground.getState().opening).toBeNull();
  });
});
