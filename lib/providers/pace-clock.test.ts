import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cancelWake, type PaceWaiter, waitingCount, wakeAfter } from "./pace-clock";

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
});
