import { describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { createMemoryStore, type RunRecordBatch, type Store } from "../store";
import { createCommitQueue } from "./record-writer";

const chunk = (text: string): TranscriptRecord => ({ kind: "chunk", turn: 0, t: 1, text });

/** A store whose grouped appends wait until the test lets each one through. */
function slowStore(store: Store) {
  const calls: (readonly RunRecordBatch[])[] = [];
  const gates: (() => void)[] = [];
  const slow: Store = Object.create(store);
  slow.appendRunRecords = async (batches) => {
    calls.push(batches);
    await new Promise<void>((resolve) => gates.push(resolve));
    return store.appendRunRecords(batches);
  };
  return { slow, calls, release: () => gates.shift()?.() };
}

describe("createCommitQueue", () => {
  it("keeps one commit in flight: what arrives meanwhile goes in the next one, whole and in order", async () => {
    const store = createMemoryStore();
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "x" },
    });
    const { slow, calls, release } = slowStore(store);
    const queue = createCommitQueue(slow, 1);
    const writer = queue.writer(meta.id, "run", (error) => {
      throw error;
    });
    writer.write(chunk("a"));
    const first = writer.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toHaveLength(1);
    // While the first commit waits on the store, records keep coming, each past the delay.
    for (const text of ["b", "c", "d"]) {
      writer.write(chunk(text));
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(calls).toHaveLength(1);
    const rest = writer.flush();
    release();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls.map((batches) => batches.map((batch) => batch.records.length))).toEqual([
      [1],
      [3],
    ]);
    release();
    await rest;
    const stored = await store.listRunRecords(meta.id, "run", 0);
    expect(stored.map((record) => (record.kind === "chunk" ? record.text : ""))).toEqual([
      "a",
      "b",
      "c",
      "d",
    ]);
  });
});
