/**
 * A call whose recording waits on its request's decoding keeps its place: calls that came
 * after it begin recording after it, though they have nothing to decode.
 */
import { describe, expect, it } from "vitest";
import type { CapturedCall } from "./capture";
import { deferred } from "./deferred-recording";
import type { RecordingQueue } from "./recording-queue";

/** A queue that runs each step as it is pushed, and a call that logs what it is told. */
function harness() {
  const log: string[] = [];
  const queue: RecordingQueue = { push: (step) => step() };
  const call = (name: string): CapturedCall => ({
    transcriptId: name,
    response: () => log.push(`${name} response`),
    push: () => log.push(`${name} chunk`),
    fellBehind: () => log.push(`${name} behind`),
    end: async () => {
      log.push(`${name} end`);
    },
  });
  const begin = (name: string) => () => {
    log.push(`${name} begins`);
    return call(name);
  };
  return { log, queue, begin };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("recording steps held while a request body decodes", () => {
  it("the agent's next call, answered while the first's body still decodes, begins after the first ends", async () => {
    const { log, queue, begin } = harness();
    let decoded = () => {};
    const decoding = new Promise<void>((resolve) => {
      decoded = resolve;
    });
    const first = deferred(begin("first"), queue, 1 << 20, () => decoding);
    first.response(200, "application/json");
    first.push(new Uint8Array(3));
    const firstEnded = first.end();
    // The agent had its answer and sent its next call, with nothing to decode.
    const next = deferred(begin("next"), queue, 1 << 20);
    next.response(200, "application/json");
    next.push(new Uint8Array(3));
    await settle();
    expect(log).toEqual([]);
    decoded();
    await firstEnded;
    await settle();
    expect(log).toEqual([
      "first begins",
      "first response",
      "first chunk",
      "first end",
      "next begins",
      "next response",
      "next chunk",
    ]);
    // Released: its later steps go straight on.
    const nextEnded = next.end();
    expect(log.at(-1)).toBe("next end");
    await nextEnded;
  });

  it("a call that started before another's body decodes is not held behind it", async () => {
    const { log, queue, begin } = harness();
    const running = deferred(begin("running"), queue, 1 << 20);
    running.response(200, "text/event-stream");
    const decoding = deferred(begin("decoding"), queue, 1 << 20, () => new Promise(() => {}));
    decoding.response(200, "application/json");
    running.push(new Uint8Array(1));
    await running.end();
    expect(log).toEqual(["running begins", "running response", "running chunk", "running end"]);
  });

  it("calls that each decode are decoded one at a time and released in the order they came", async () => {
    const { log, queue, begin } = harness();
    const done: (() => void)[] = [];
    const decode = (name: string) => () =>
      new Promise<void>((resolve) => {
        log.push(`${name} decodes`);
        done.push(resolve);
      });
    const first = deferred(begin("first"), queue, 1 << 20, decode("first"));
    first.response(200, "application/json");
    const second = deferred(begin("second"), queue, 1 << 20, decode("second"));
    second.response(200, "application/json");
    await settle();
    // The second's decoding waits for the first's: one decoded body in memory at a time.
    expect(log).toEqual(["first decodes"]);
    done[0]?.();
    await settle();
    expect(log).toEqual(["first decodes", "first begins", "first response", "second decodes"]);
    done[1]?.();
    await settle();
    expect(log.slice(4)).toEqual(["second begins", "second response"]);
  });
});
