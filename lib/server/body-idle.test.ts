import { describe, expect, it } from "vitest";
import { BodyIdleError, DEFAULT_BODY_IDLE_MS, idleLimited, readBodyIdleMs } from "./body-idle";

const bytes = (text: string) => new TextEncoder().encode(text);

/** A body that sends `parts`, then (unless `end`) nothing more; `cancelled` says if it was cancelled. */
function trickle(parts: string[], end: boolean) {
  const state = { cancelled: undefined as unknown };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const part of parts) controller.enqueue(bytes(part));
      if (end) controller.close();
    },
    cancel(reason) {
      state.cancelled = reason;
    },
  });
  return { body, state };
}

describe("idleLimited", () => {
  it("passes a body through whole, however slowly it is read", async () => {
    const { body } = trickle(["one ", "two ", "three"], true);
    const reader = idleLimited(body, 20).getReader();
    let text = "";
    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      text += new TextDecoder().decode(next.value);
      // The reader's own pauses are not the client's silence.
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    expect(text).toBe("one two three");
  });

  it("fails with BodyIdleError once the client has sent nothing for the limit, and cancels it", async () => {
    const { body, state } = trickle(["{"], false);
    let told = false;
    const reader = idleLimited(body, 20, () => {
      told = true;
    }).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("{");
    const error = await reader.read().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(BodyIdleError);
    expect((error as Error).message).toMatch(/^body: nothing arrived for 0.02 s/);
    expect(told).toBe(true);
    expect(state.cancelled).toBe(error);
  });

  it("reads WIRESCOPE_BODY_IDLE_TIMEOUT_S in seconds; anything but a positive number is the default", () => {
    expect(readBodyIdleMs({ WIRESCOPE_BODY_IDLE_TIMEOUT_S: "2.5" })).toBe(2500);
    for (const value of [undefined, "", "0", "-1", "soon"])
      expect(readBodyIdleMs({ WIRESCOPE_BODY_IDLE_TIMEOUT_S: value })).toBe(DEFAULT_BODY_IDLE_MS);
  });
});
