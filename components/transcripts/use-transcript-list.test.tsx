// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LIST_RETRY_MS, useTranscriptList } from "./use-transcript-list";

beforeEach(() => {
  vi.useFakeTimers({ shouldAdvanceTime: true });
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** How often the list was fetched by the end of three retry periods after `answer`. */
async function fetchesAfterFailure(answer: () => Promise<Response>): Promise<number> {
  const fetched = vi.fn(answer);
  vi.stubGlobal("fetch", fetched);
  const { result } = renderHook(() => useTranscriptList("x".repeat(501)));
  await waitFor(() => expect(result.current.error).not.toBeNull());
  for (let period = 0; period < 3; period++)
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LIST_RETRY_MS);
    });
  return fetched.mock.calls.length;
}

describe("useTranscriptList", () => {
  it("does not ask again after a 4xx: the same request gets the same answer", async () => {
    const count = await fetchesAfterFailure(async () =>
      Response.json({ error: "query: at most 500 characters" }, { status: 400 }),
    );
    expect(count).toBe(1);
  });

  it("asks again after a 5xx, every LIST_RETRY_MS", async () => {
    const count = await fetchesAfterFailure(async () =>
      Response.json({ error: "store down" }, { status: 503 }),
    );
    expect(count).toBe(4);
  });

  it("asks again after a failed connection", async () => {
    const count = await fetchesAfterFailure(async () => {
      throw new TypeError("fetch failed");
    });
    expect(count).toBe(4);
  });
});
