import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunStreamRecord, readRunStream } from "../client/run-stream";
import type { TranscriptRecord } from "../protocol/records";
import { recordRun } from "../replay/testing";
import { createMemoryStore, type Store } from "../store";
import type { LiveRun } from "./live-run";
import { RunRegistry } from "./run-registry";

/** A real run's records (the demo model), published by hand so the test decides the timing. */
let recorded: TranscriptRecord[] = [];

beforeAll(async () => {
  recorded = (await recordRun({ message: "list the files", dialect: "xml" })).records;
});

afterEach(() => {
  vi.useRealTimers();
});

const LIMITS = { bufferBytes: 64 * 1024, maxLagBytes: 4 * 1024 * 1024 };

async function openRun(registry: RunRegistry, store: Store, controller?: AbortController) {
  const meta = await store.createTranscript({
    dialect: "xml",
    model: { provider: "demo", id: "x" },
  });
  return registry.open({
    store,
    transcriptId: meta.id,
    ...(controller === undefined ? {} : { controller }),
  });
}

/** Waits until the run's frames have gone out to the viewers (they go once per tick). */
const nextTick = () => new Promise<void>((resolve) => setImmediate(resolve));

async function readAll(stream: ReadableStream<Uint8Array>): Promise<RunStreamRecord[]> {
  const records: RunStreamRecord[] = [];
  for await (const record of readRunStream(stream)) records.push(record);
  return records;
}

const withoutHeader = (records: RunStreamRecord[]) =>
  records.filter((record) => record.kind !== "run");

async function storedOf(store: Store, run: LiveRun): Promise<TranscriptRecord[]> {
  const records = await store.listRunRecords(run.transcriptId, run.runId, 0);
  return records.map(({ seq: _seq, runId: _runId, ...record }) => record);
}

describe("RunRegistry", () => {
  it("a viewer dropped at any record index and reattached from its count gets exactly the stored records", async () => {
    expect(recorded.length).toBeGreaterThan(20);
    for (let cut = 0; cut <= recorded.length; cut++) {
      const store = createMemoryStore();
      const registry = new RunRegistry(LIMITS);
      const run = await openRun(registry, store);
      const reader = readRunStream(run.attach(0));
      const header = (await reader.next()).value;
      expect(header).toEqual({ kind: "run", transcriptId: run.transcriptId, runId: run.runId });
      const seen: RunStreamRecord[] = [];
      // Publish record by record; the first connection reads `cut` of them, then goes away.
      let published = 0;
      while (seen.length < cut) {
        run.publish(recorded[published++] as TranscriptRecord);
        await nextTick();
        while (seen.length < Math.min(cut, published)) {
          const next = await reader.next();
          if (next.done) throw new Error("ended early");
          seen.push(next.value);
        }
      }
      await reader.return(undefined);
      // Half of what is left is published before the viewer is back, the rest after.
      const middle = published + Math.floor((recorded.length - published) / 2);
      while (published < middle) run.publish(recorded[published++] as TranscriptRecord);
      const again = readAll(run.attach(seen.length));
      await nextTick();
      while (published < recorded.length) run.publish(recorded[published++] as TranscriptRecord);
      await registry.finish(run, store);
      const rest = await again;
      expect(rest[0]?.kind).toBe("run");
      const joined = [...seen, ...withoutHeader(rest)];
      expect(joined).toEqual(recorded);
      expect(await storedOf(store, run)).toEqual(joined);
    }
  });

  it("gives two viewers identical records and leaves the active list when done", async () => {
    const store = createMemoryStore();
    const registry = new RunRegistry(LIMITS);
    const run = await openRun(registry, store);
    const first = readAll(run.attach(0));
    for (const record of recorded.slice(0, 10)) run.publish(record);
    await nextTick();
    const second = readAll(run.attach(0));
    for (const record of recorded.slice(10)) run.publish(record);
    expect(registry.active()).toEqual([
      {
        runId: run.runId,
        transcriptId: run.transcriptId,
        startedAt: run.startedAt,
        records: recorded.length,
      },
    ]);
    await registry.finish(run, store);
    const [a, b] = await Promise.all([first, second]);
    expect(withoutHeader(a)).toEqual(recorded);
    expect(b).toEqual(a);
    expect(registry.active()).toEqual([]);
    expect(registry.get(run.runId)).toBeUndefined();
    expect((await store.getRunInfo(run.runId))?.endedAt).not.toBeNull();
  });

  it("a viewer that never reads does not hold the run or the others back; it is dropped and can reattach", async () => {
    const store = createMemoryStore();
    const registry = new RunRegistry({ bufferBytes: 512, maxLagBytes: 4096 });
    const run = await openRun(registry, store);
    const stalled = run.attach(0);
    const fast = readAll(run.attach(0));
    for (const record of recorded) {
      run.publish(record);
      await nextTick();
    }
    // The run ends and the fast viewer has everything while the stalled one has read nothing.
    await registry.finish(run, store);
    expect(withoutHeader(await fast)).toEqual(recorded);
    const late = await readAll(stalled);
    const last = late.at(-1);
    expect(last?.kind).toBe("dropped");
    const got = withoutHeader(late).filter((record) => record.kind !== "dropped");
    expect(last).toEqual({ kind: "dropped", after: got.length });
    expect(got.length).toBeLessThan(recorded.length);
    expect(got).toEqual(recorded.slice(0, got.length));
  });

  it("stops only on request, never because a viewer left", async () => {
    const store = createMemoryStore();
    const registry = new RunRegistry(LIMITS);
    const controller = new AbortController();
    const run = await openRun(registry, store, controller);
    const stream = run.attach(0);
    await stream.cancel();
    expect(controller.signal.aborted).toBe(false);
    expect(registry.stop("no-such-run")).toBe(false);
    expect(registry.stop(run.runId)).toBe(true);
    expect(controller.signal.reason).toBe("user");
    await registry.finish(run, store);
    expect(registry.stop(run.runId)).toBe(false);
  });

  it("stops a run that has had no viewer for the configured time, and only then", async () => {
    vi.useFakeTimers();
    const store = createMemoryStore();
    const registry = new RunRegistry(LIMITS);
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "x" },
    });
    const controller = new AbortController();
    const run = await registry.open({
      store,
      transcriptId: meta.id,
      controller,
      stopUnwatchedAfterMs: 1000,
    });
    const first = run.attach(0);
    vi.advanceTimersByTime(5000);
    expect(controller.signal.aborted).toBe(false);
    await first.cancel();
    vi.advanceTimersByTime(999);
    const second = run.attach(0);
    vi.advanceTimersByTime(5000);
    expect(controller.signal.aborted).toBe(false);
    await second.cancel();
    vi.advanceTimersByTime(999);
    expect(controller.signal.aborted).toBe(false);
    // Out of time: the store is asked whether another instance has viewers of it (none).
    vi.advanceTimersByTime(1);
    await vi.waitFor(() => expect(controller.signal.reason).toBe("disconnect"));
  });

  it("a failed store write reaches the viewers as storage_failed and stops the run", async () => {
    const memory = createMemoryStore();
    let failing = false;
    const store: Store = {
      ...memory,
      async appendRunRecords(batches) {
        if (failing) throw new Error("SQLITE_FULL: database or disk is full");
        return memory.appendRunRecords(batches);
      },
    };
    const registry = new RunRegistry(LIMITS);
    const { run, viewer, controller } = await failAtSixth(registry, store, () => {
      failing = true;
    });
    expect(controller.signal.reason).toBe("storage");
    // What the producer does after the failure (its interrupt) is neither sent nor stored.
    run.publish(recorded[6] as TranscriptRecord);
    await registry.finish(run, store);
    const records = await viewer;
    expect(records.slice(0, 6)).toEqual(recorded.slice(0, 6));
    expect(records.slice(6)).toEqual([
      {
        kind: "event",
        event: expect.objectContaining({ type: "error", code: "storage_failed" }),
      },
    ]);
    expect(JSON.stringify(records.at(-1))).not.toContain("/");
  });
  it("stores what a failed run's viewers got, storage_failed last, and its end once the store answers again", async () => {
    const memory = createMemoryStore();
    let failing = false;
    const down = () => new Error("connect ECONNREFUSED 127.0.0.1:5432");
    const store: Store = {
      ...memory,
      async appendRunRecords(batches) {
        if (failing) throw down();
        return memory.appendRunRecords(batches);
      },
      async recordRunEnd(runId, endedAt) {
        if (failing) throw down();
        return memory.recordRunEnd(runId, endedAt);
      },
    };
    const registry = new RunRegistry(LIMITS);
    registry.endRetryMs = 5;
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { run, viewer } = await failAtSixth(registry, store, () => {
      failing = true;
    });
    run.publish(recorded[6] as TranscriptRecord);
    await registry.finish(run, store);
    // The database is still down: the run is not noted as ended, and stays so while it is.
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await memory.getRunInfo(run.runId))?.endedAt).toBeNull();

    failing = false;
    await vi.waitFor(async () =>
      expect((await memory.getRunInfo(run.runId))?.endedAt).not.toBeNull(),
    );
    // Everything the viewers got, the record whose commit failed included, and nothing after.
    const stored = await storedOf(store, run);
    expect(stored.slice(0, 6)).toEqual(recorded.slice(0, 6));
    expect(stored.slice(6)).toEqual([
      {
        kind: "event",
        event: expect.objectContaining({ type: "error", code: "storage_failed" }),
      },
    ]);
    expect(stored).toEqual(await viewer);
    // Said once when it failed and once when it was stored, not on every try.
    const said = errors.mock.calls.map((call) => String(call[0]));
    expect(said.filter((line) => line.includes("could not record the end"))).toHaveLength(1);
    expect(said.filter((line) => line.includes("at last"))).toHaveLength(1);
    errors.mockRestore();
  });
  it("stores nothing twice when a commit reported failed had been applied", async () => {
    const memory = createMemoryStore();
    let lying = false;
    const store: Store = {
      ...memory,
      async appendRunRecords(batches) {
        const results = await memory.appendRunRecords(batches);
        if (!lying) return results;
        // Applied, and the answer lost with the connection: reported as a failure.
        lying = false;
        throw new Error("Connection terminated unexpectedly");
      },
    };
    const registry = new RunRegistry(LIMITS);
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { run, viewer } = await failAtSixth(registry, store, () => {
      lying = true;
    });
    await registry.finish(run, store);
    const stored = await storedOf(store, run);
    expect(stored).toEqual(await viewer);
    expect(stored.slice(0, 6)).toEqual(recorded.slice(0, 6));
    expect(stored).toHaveLength(7);
    expect((await memory.getRunInfo(run.runId))?.endedAt).not.toBeNull();
    errors.mockRestore();
  });
});

/**
 * A run whose first five records are stored, then `breakStore()`, then a sixth whose commit
 * fails: the run is stopped. `viewer`: what its viewer got, header aside.
 */
async function failAtSixth(registry: RunRegistry, store: Store, breakStore: () => void) {
  const controller = new AbortController();
  const run = await openRun(registry, store, controller);
  const viewer = readAll(run.attach(0)).then(withoutHeader);
  const before = recorded.slice(0, 5);
  for (const record of before) run.publish(record);
  await vi.waitFor(async () => expect(await storedOf(store, run)).toEqual(before));
  breakStore();
  run.publish(recorded[5] as TranscriptRecord);
  await vi.waitFor(() => expect(controller.signal.aborted).toBe(true));
  return { run, viewer, controller };
}
