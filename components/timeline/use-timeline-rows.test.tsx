// @vitest-environment jsdom
import { act, renderHook } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { append, cleanup, loadLog, make } from "./testing";
import { useTimelineRows } from "./use-timeline-rows";

afterEach(cleanup);

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

describe("useTimelineRows", () => {
  it("lists top-level events: results go in their call's card, sub-agent events nest", () => {
    loadLog([
      make.user("hi"),
      make.call("a1", "researcher", {}, { action: { type: "agent", mode: "sync" } }),
      { ...make.think("inside", "sub-t"), parent: "a1" },
      make.result("a1", "success", "done", "Agent finished"),
      make.result("ghost", "failure", "bad block", "Malformed call, not run", "protocol"),
      make.respond("bye"),
    ]);
    const { result } = renderHook(() => useTimelineRows());
    expect(result.current).toEqual(["u1", "e-a1", "res-ghost", "r1"]);
  });

  it("catches up once per frame, keeping the same array when nothing was added", async () => {
    loadLog([make.think("a")], { status: "running" });
    const { result } = renderHook(() => useTimelineRows());
    const first = result.current;
    await act(async () => {
      append(make.think("b"));
      await nextFrame();
    });
    expect(result.current).toBe(first);
    await act(async () => {
      append(make.respond("c"), make.respond("d", "r2"));
      await nextFrame();
    });
    expect(result.current).toEqual(["t1", "r1", "r2"]);
  });
});
