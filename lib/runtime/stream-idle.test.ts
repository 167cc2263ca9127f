import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { idleWatch, StreamIdleError } from "./stream-idle";

describe("idleWatch", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fires idleMs after the last touch, however many touches came before", async () => {
    const watch = idleWatch(100);
    watch.touch();
    for (let part = 0; part < 10; part++) {
      await vi.advanceTimersByTimeAsync(60);
      watch.touch();
    }
    expect(watch.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(99);
    expect(watch.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(watch.fired).toBeInstanceOf(StreamIdleError);
  });

  it("does not count the time between pause and the next touch, and never fires once stopped", async () => {
    const watch = idleWatch(100);
    watch.touch();
    watch.pause();
    await vi.advanceTimersByTimeAsync(500);
    expect(watch.signal.aborted).toBe(false);
    watch.touch();
    await vi.advanceTimersByTimeAsync(99);
    watch.stop();
    await vi.advanceTimersByTimeAsync(500);
    expect(watch.signal.aborted).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("aborts the controller it is given, and does not fire once that was aborted otherwise", async () => {
    const turn = new AbortController();
    const watch = idleWatch(100, turn);
    watch.touch();
    await vi.advanceTimersByTimeAsync(100);
    expect(turn.signal.reason).toBeInstanceOf(StreamIdleError);
    expect(watch.fired).toBe(turn.signal.reason);

    const stopped = new AbortController();
    const quiet = idleWatch(100, stopped);
    quiet.touch();
    stopped.abort("user");
    await vi.advanceTimersByTimeAsync(500);
    expect(quiet.fired).toBeUndefined();
    expect(stopped.signal.reason).toBe("user");
  });
});
