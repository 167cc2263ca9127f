// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { watchActiveRuns } from "./run-client";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("watchActiveRuns", () => {
  it("keeps one poll loop when the tab is shown again while a poll is awaited", async () => {
    vi.useFakeTimers();
    const answers: (() => void)[] = [];
    const fetch = vi.fn(
      () =>
        new Promise<Response>((resolve) =>
          answers.push(() => resolve(Response.json({ runs: [] }))),
        ),
    );
    vi.stubGlobal("fetch", fetch);
    const stop = watchActiveRuns(() => {}, 2000);
    expect(fetch).toHaveBeenCalledTimes(1);
    // Back to the tab while the first poll's answer is on its way.
    document.dispatchEvent(new Event("visibilitychange"));
    const answer = async () => {
      for (const send of answers.splice(0)) send();
      await vi.advanceTimersByTimeAsync(0);
    };
    await answer();
    const before = fetch.mock.calls.length;
    for (let second = 0; second < 10; second += 2) {
      await vi.advanceTimersByTimeAsync(2000);
      await answer();
    }
    stop();
    expect(fetch.mock.calls.length - before).toBe(5);
  });
});
