import { describe, expect, it } from "vitest";
import { createRecordingQueue } from "./recording-queue";

/** A queue on a fake clock whose slices run only when the test says so. */
function harness(sliceMs: number) {
  let clock = 0;
  const pending: (() => void)[] = [];
  const errors: unknown[] = [];
  const queue = createRecordingQueue({
    sliceMs,
    now: () => clock,
    schedule: (drain) => pending.push(drain),
    log: (error) => errors.push(error),
  });
  return {
    queue,
    errors,
    advance: (ms: number) => {
      clock += ms;
    },
    /** Runs the one scheduled slice; false when none is scheduled. */
    slice: () => {
      const next = pending.shift();
      if (next === undefined) return false;
      next();
      return true;
    },
    scheduled: () => pending.length,
  };
}

describe("recording queue", () => {
  it("runs tasks in order, yielding to the event loop once a slice's time is spent", () => {
    const { queue, advance, slice, scheduled } = harness(2);
    const ran: number[] = [];
    for (let index = 0; index < 5; index++)
      queue.push(() => {
        ran.push(index);
        advance(1);
      });
    expect(scheduled()).toBe(1);
    expect(ran).toEqual([]);
    slice();
    expect(ran).toEqual([0, 1]);
    expect(scheduled()).toBe(1);
    slice();
    expect(ran).toEqual([0, 1, 2, 3]);
    slice();
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    expect(scheduled()).toBe(0);
  });

  it("keeps order for tasks pushed while a slice runs, and schedules one slice at a time", () => {
    const { queue, slice, scheduled } = harness(10);
    const ran: string[] = [];
    queue.push(() => {
      ran.push("a");
      queue.push(() => ran.push("c"));
    });
    queue.push(() => ran.push("b"));
    expect(scheduled()).toBe(1);
    slice();
    expect(ran).toEqual(["a", "b", "c"]);
    expect(scheduled()).toBe(0);
    queue.push(() => ran.push("d"));
    expect(scheduled()).toBe(1);
    slice();
    expect(ran).toEqual(["a", "b", "c", "d"]);
  });

  it("logs a task that throws and goes on with the next", () => {
    const { queue, errors, slice } = harness(10);
    const ran: string[] = [];
    queue.push(() => {
      throw new Error("broken chunk");
    });
    queue.push(() => ran.push("next"));
    slice();
    expect(ran).toEqual(["next"]);
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toContain("broken chunk");
  });

  it("lets the event loop run between slices of a long backlog", async () => {
    const queue = createRecordingQueue({ sliceMs: 0 });
    const order: string[] = [];
    for (let index = 0; index < 3; index++) queue.push(() => order.push(`task ${index}`));
    // I/O-like work that becomes ready after the first slice was scheduled.
    setImmediate(() => order.push("other"));
    // Settles after the last task, however slow the loop (a 5 ms wait fell short under load).
    await new Promise<void>((resolve) => queue.push(resolve));
    expect(order).toEqual(["task 0", "other", "task 1", "task 2"]);
  });
});
