import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { createMemoryStore, type RunRecordBatch, type Store } from "../store";
import { COMMIT_BUSY_FACTOR, COMMIT_DELAY_MS, createCommitQueue } from "./record-writer";

const record = (text: string): TranscriptRecord => ({ kind: "chunk", turn: 0, t: 0, text });

/** A store whose commits take `costMs` on the injected clock, recording what it was given. */
function slowStore(costMs: number) {
  let clock = 0;
  const commits: RunRecordBatch[][] = [];
  const store = {
    async appendRunRecords(batches: readonly RunRecordBatch[]) {
      commits.push(batches.map((batch) => ({ ...batch, records: [...batch.records] })));
      clock += costMs;
      return batches.map(() => ({ ok: true as const, lastSeq: 0 }));
    },
  } as unknown as Store;
  return { store, commits, now: () => clock };
}

describe("createCommitQueue", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("groups every run's records into one commit after the delay, each run's in order", async () => {
    const { store, commits, now } = slowStore(0);
    const queue = createCommitQueue(store, { now });
    const first = queue.writer("t1", "r1", () => {});
    const second = queue.writer("t2", "r2", () => {});
    first.write(record("a"));
    second.write(record("x"));
    first.write(record("b"));
    await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS - 1);
    expect(commits).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(commits).toHaveLength(1);
    expect(
      commits[0]?.map((batch) => batch.records.map((r) => (r.kind === "chunk" ? r.text : ""))),
    ).toEqual([["a", "b"], ["x"]]);
  });

  it("hands the store each record's JSON when the writer was given it", async () => {
    const { store, commits, now } = slowStore(0);
    const writer = createCommitQueue(store, { now }).writer("t1", "r1", () => {});
    writer.write(record("a"), '{"kind":"chunk"}');
    writer.write(record("b"));
    await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS);
    expect(commits[0]?.[0]?.json).toEqual(['{"kind":"chunk"}', undefined]);
  });

  it("waits longer after a slow commit (16 × its time, at most the maximum)", async () => {
    expect(COMMIT_BUSY_FACTOR).toBe(16);
    const { store, commits, now } = slowStore(5);
    const queue = createCommitQueue(store, { now, maxDelayMs: 100 });
    const writer = queue.writer("t1", "r1", () => {});
    writer.write(record("a"));
    await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS);
    expect(commits).toHaveLength(1);
    writer.write(record("b"));
    await vi.advanceTimersByTimeAsync(79);
    expect(commits).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(commits).toHaveLength(2);

    const { store: slower, commits: slowCommits, now: slowNow } = slowStore(500);
    const capped = createCommitQueue(slower, { now: slowNow, maxDelayMs: 100 });
    const other = capped.writer("t2", "r2", () => {});
    other.write(record("a"));
    await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS);
    other.write(record("b"));
    await vi.advanceTimersByTimeAsync(99);
    expect(slowCommits).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(slowCommits).toHaveLength(2);
  });

  it("flush joins the scheduled commit: runs ending within one wait share it", async () => {
    const { store, commits, now } = slowStore(0);
    const queue = createCommitQueue(store, { now });
    const first = queue.writer("t1", "r1", () => {});
    const second = queue.writer("t2", "r2", () => {});
    const idle = queue.writer("t3", "r3", () => {});
    let flushed = 0;
    first.write(record("a"));
    void first.flush().then(() => flushed++);
    await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS / 2);
    second.write(record("x"));
    void second.flush().then(() => flushed++);
    // A writer with nothing pending settles at once.
    await idle.flush();
    expect(commits).toHaveLength(0);
    expect(flushed).toBe(0);
    await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS / 2);
    expect(flushed).toBe(2);
    expect(commits).toHaveLength(1);
    expect(commits[0]?.map((batch) => batch.runId)).toEqual(["r1", "r2"]);
  });

  it("flush brings a commit held long by load forward to the end's delay", async () => {
    const { store, commits, now: storeClock } = slowStore(50);
    // Commits take 50 ms on this clock, and the (fake) timers' time passes on it too.
    const now = () => storeClock() + Date.now();
    const queue = createCommitQueue(store, { now, maxDelayMs: 400, endDelayMs: 100 });
    const streaming = queue.writer("t1", "r1", () => {});
    const ending = queue.writer("t2", "r2", () => {});
    streaming.write(record("a"));
    await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS);
    expect(commits).toHaveLength(1);
    // The next commit is 400 ms away (16 × 50, capped); a run ending asks for it within 100.
    streaming.write(record("b"));
    await vi.advanceTimersByTimeAsync(20);
    ending.write(record("x"));
    let ended = false;
    void ending.flush().then(() => {
      ended = true;
    });
    await vi.advanceTimersByTimeAsync(99);
    expect(commits).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(ended).toBe(true);
    expect(commits[1]?.map((batch) => batch.runId)).toEqual(["r1", "r2"]);
    // A flush never puts a commit off: one due sooner than the end's delay keeps its time.
    streaming.write(record("c"));
    await vi.advanceTimersByTimeAsync(350);
    ending.write(record("y"));
    void ending.flush();
    await vi.advanceTimersByTimeAsync(49);
    expect(commits).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(commits).toHaveLength(3);
  });

  it("goes back to the short delay once commits are quick again", async () => {
    let cost = 5;
    let clock = 0;
    const commits: number[] = [];
    const store = {
      async appendRunRecords(batches: readonly RunRecordBatch[]) {
        commits.push(clock);
        clock += cost;
        return batches.map(() => ({ ok: true as const, lastSeq: 0 }));
      },
    } as unknown as Store;
    const writer = createCommitQueue(store, { now: () => clock }).writer("t", "r", () => {});
    writer.write(record("a"));
    await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS);
    cost = 0;
    writer.write(record("b"));
    await vi.advanceTimersByTimeAsync(80);
    expect(commits).toHaveLength(2);
    writer.write(record("c"));
    await vi.advanceTimersByTimeAsync(COMMIT_DELAY_MS);
    expect(commits).toHaveLength(3);
  });
});

const chunk = (text: string): TranscriptRecord => ({ kind: "chunk", turn: 0, t: 1, text });

/** A store whose grouped appends wait until the test lets each one through. */
function gatedStore(store: Store) {
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

describe("createCommitQueue with a slow store", () => {
  it("keeps one commit in flight: what arrives meanwhile goes in the next one, whole and in order", async () => {
    const store = createMemoryStore();
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "x" },
    });
    const { slow, calls, release } = gatedStore(store);
    const queue = createCommitQueue(slow, { delayMs: 1 });
    const writer = queue.writer(meta.id, "run", (error) => {
      throw error;
    });
    writer.write(chunk("a"));
    const first = writer.flush();
    // The flush waits for the scheduled commit (1 ms away).
    await new Promise((resolve) => setTimeout(resolve, 5));
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

describe("createCommitQueue with a failing store", () => {
  it("hands the writer what it did not store: the failed commit's records and those written since, none committed after", async () => {
    const store = createMemoryStore();
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "x" },
    });
    const { slow, calls, release } = gatedStore({
      ...store,
      appendRunRecords: async () => {
        throw new Error("disk full");
      },
    });
    const failures: { error: unknown; texts: string[] }[] = [];
    const writer = createCommitQueue(slow, { delayMs: 1 }).writer(
      meta.id,
      "run",
      (error, unstored) => {
        failures.push({
          error,
          texts: unstored.records.map((record) => (record.kind === "chunk" ? record.text : "")),
        });
      },
    );
    writer.write(chunk("a"));
    writer.write(chunk("b"));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(calls).toHaveLength(1);
    // Written while the failing commit is on its way.
    writer.write(chunk("c"));
    release();
    await writer.flush();
    writer.write(chunk("d"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(failures).toEqual([{ error: new Error("disk full"), texts: ["a", "b", "c"] }]);
    // Nothing more reached the store: "c" is the caller's now, "d" came after the failure.
    expect(calls).toHaveLength(1);
  });
});
