import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cancelWake, type PaceWaiter, WAKE_SLICE, waitingCount, wakeAfter } from "./pace-clock";

function waiter(name: string, woken: string[]): PaceWaiter {
  return { wake: () => woken.push(name) };
}

describe("the shared pace clock", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "performance"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("serves every stream due in the same millisecond with one timer, each at its own pace", () => {
    const woken: string[] = [];
    for (const name of ["a", "b", "c"]) wakeAfter(waiter(name, woken), 15);
    wakeAfter(waiter("slow", woken), 40);
    expect(vi.getTimerCount()).toBe(1);
    expect(waitingCount()).toBe(4);

    vi.advanceTimersByTime(13);
    expect(woken).toEqual([]);
    vi.advanceTimersByTime(2);
    expect(woken).toEqual(["a", "b", "c"]);
    // The one timer now waits for the next stream due, not for the earlier ones again.
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(24);
    expect(woken).toEqual(["a", "b", "c"]);
    vi.advanceTimersByTime(1);
    expect(woken).toEqual(["a", "b", "c", "slow"]);
    expect(vi.getTimerCount()).toBe(0);
    expect(waitingCount()).toBe(0);
  });

  it("lets a woken stream wait again, and never wakes a cancelled one", () => {
    const woken: string[] = [];
    const again: PaceWaiter = {
      wake: () => {
        woken.push("again");
        if (woken.length < 3) wakeAfter(again, 10);
      },
    };
    wakeAfter(again, 10);
    const gone = waiter("gone", woken);
    cancelWake(gone, wakeAfter(gone, 10));
    vi.advanceTimersByTime(100);
    expect(woken).toEqual(["again", "again", "again"]);
    expect(waitingCount()).toBe(0);
  });

  it("arms its timer earlier for a stream due before the one it waits for", () => {
    const woken: string[] = [];
    wakeAfter(waiter("late", woken), 50);
    wakeAfter(waiter("soon", woken), 5);
    vi.advanceTimersByTime(5);
    expect(woken).toEqual(["soon"]);
    vi.advanceTimersByTime(45);
    expect(woken).toEqual(["soon", "late"]);
  });

  it("wakes at most a slice per turn of the event loop, the rest on the next turns", async () => {
    const woken: string[] = [];
    const many = WAKE_SLICE * 2 + 5;
    for (let index = 0; index < many; index++) wakeAfter(waiter(`run${index}`, woken), 15);
    wakeAfter(waiter("later", woken), 40);
    // One of the same bucket cancelled while it waits for a later slice: it is not woken.
    const cancelled = waiter("cancelled", woken);
    const due = wakeAfter(cancelled, 15);
    woken.length = 0;
    vi.advanceTimersByTime(15);
    expect(woken).toHaveLength(WAKE_SLICE);
    cancelWake(cancelled, due);
    // The loop turns (connections are accepted, sockets read) before the next slice.
    await new Promise((resolve) => setImmediate(resolve));
    expect(woken).toHaveLength(WAKE_SLICE * 2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(woken).toHaveLength(many);
    expect(woken).not.toContain("cancelled");
    // Then the timer waits for the next stream due, as before.
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(25);
    expect(woken.at(-1)).toBe("later");
    expect(waitingCount()).toBe(0);
  });
});
