/**
 * `WIRESCOPE_STOP_UNWATCHED_AFTER_S` across instances: a run watched on any instance is
 * watched. A follows its own run with no viewer there; B's viewer keeps it going, and once that
 * viewer leaves A stops it (`interrupt`, `disconnect`) as it would have with no viewer at all.
 */
import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { createMemoryStore } from "../store";
import { RunRegistry } from "./run-registry";

const LIMITS = { bufferBytes: 64 * 1024, maxLagBytes: 4 * 1024 * 1024 };
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const chunk = (text: string): TranscriptRecord => ({ kind: "chunk", turn: 0, t: 0, text });

describe("stopping an unwatched run with viewers on another instance", () => {
  it("A keeps its run going while B has a viewer of it, and stops it once that viewer has left", async () => {
    const store = createMemoryStore();
    const registryA = new RunRegistry(LIMITS, "instance-a");
    const registryB = new RunRegistry(LIMITS, "instance-b");
    registryB.pollMs = 5;
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "x" },
    });
    const controller = new AbortController();
    const run = await registryA.open({
      store,
      transcriptId: meta.id,
      controller,
      stopUnwatchedAfterMs: 100,
    });
    const attached = await registryB.attachFollowed(store, run.runId, 0, 1000);
    if (attached?.ok !== true) throw new Error("B could not follow A's run");
    const reader = attached.stream.getReader();
    const reading = (async () => {
      while (!(await reader.read()).done) {}
    })().catch(() => undefined);
    // Ten times the countdown, with A's run producing records and no viewer on A.
    for (let index = 0; index < 50; index++) {
      run.publish(chunk(String(index)));
      await pause(20);
    }
    expect(controller.signal.aborted).toBe(false);
    await reader.cancel();
    await reading;
    // B's last mark runs out (WATCH_MARK_MS), then A's countdown.
    while (!controller.signal.aborted) await pause(20);
    expect(controller.signal.reason).toBe("disconnect");
    await registryA.finish(run, store);
  }, 15_000);
});
