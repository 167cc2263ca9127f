import { describe, expect, it } from "vitest";
import { keyedQueue } from "./keyed-queue";

/** A promise settled from outside, to hold a piece of work open. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("keyedQueue", () => {
  it("runs work on one key in call order, after earlier work settles, failures included", async () => {
    const queue = keyedQueue();
    const order: string[] = [];
    const first = gate();
    const a = queue(["t"], async () => {
      await first.opened;
      order.push("a");
      throw new Error("a failed");
    });
    const b = queue(["t"], async () => {
      order.push("b");
      return "b";
    });
    // b waits for a even though a is slow.
    await Promise.resolve();
    expect(order).toEqual([]);
    first.open();
    await expect(a).rejects.toThrow("a failed");
    expect(await b).toBe("b");
    expect(order).toEqual(["a", "b"]);
  });

  it("runs work on other keys at once, and waits for every key a call names", async () => {
    const queue = keyedQueue();
    const order: string[] = [];
    const held = gate();
    const slow = queue(["x"], async () => {
      await held.opened;
      order.push("x");
    });
    await queue(["y"], async () => {
      order.push("y");
    });
    const both = queue(["y", "x", "x"], async () => {
      order.push("x+y");
    });
    expect(order).toEqual(["y"]);
    held.open();
    await Promise.all([slow, both]);
    expect(order).toEqual(["y", "x", "x+y"]);
  });
});
