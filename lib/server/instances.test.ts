import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunStreamRecord, readRunStream } from "../client/run-stream";
import type { TranscriptRecord } from "../protocol/records";
import { recordRun } from "../replay/testing";
import { createMemoryStore, openSqliteStore, type Store } from "../store";
import { interruptCrashedRuns } from "./crash-recovery";
import { startInstance } from "./instance";
import { RunBusyError, RunRegistry } from "./run-registry";

/**
 * Two instances in one process: two registries, each on its own connection to one SQLite
 * file, as two servers sharing a database are (`e2e/instances.spec.ts` runs real processes).
 */
const directory = mkdtempSync(join(tmpdir(), "wirescope-instances-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let files = 0;

let recorded: TranscriptRecord[] = [];
beforeAll(async () => {
  recorded = (await recordRun({ message: "list the files", dialect: "xml" })).records;
});

const LIMITS = { bufferBytes: 64 * 1024, maxLagBytes: 4 * 1024 * 1024 };

function twoInstances(): { a: Store; b: Store; registryA: RunRegistry; registryB: RunRegistry } {
  const path = join(directory, `${++files}.db`);
  const registryA = new RunRegistry(LIMITS, "instance-a");
  const registryB = new RunRegistry(LIMITS, "instance-b");
  registryA.pollMs = 2;
  registryB.pollMs = 2;
  return { a: openSqliteStore({ path }), b: openSqliteStore({ path }), registryA, registryB };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<RunStreamRecord[]> {
  const records: RunStreamRecord[] = [];
  for await (const record of readRunStream(stream)) records.push(record);
  return records;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe("several instances on one database", () => {
  it("a viewer on B of A's run gets every stored record in order, resumes from its count and sees the end", async () => {
    const { a, b, registryA, registryB } = twoInstances();
    const meta = await a.createTranscript({ dialect: "xml", model: { provider: "demo", id: "x" } });
    const run = await registryA.open({ store: a, transcriptId: meta.id, exclusive: true });
    const half = Math.floor(recorded.length / 2);
    for (const record of recorded.slice(0, 5)) run.publish(record);
    // B knows the run only through the store: it is in B's active list with A's count so far.
    while ((await b.listRunRecords(meta.id, run.runId, 0)).length < 5) await pause(5);
    expect(registryB.get(run.runId)).toBeUndefined();
    expect(await registryB.activeEverywhere(b)).toEqual([
      { runId: run.runId, transcriptId: meta.id, startedAt: run.startedAt, records: 5 },
    ]);
    const followed = await registryB.follow(b, run.runId);
    if (followed === null) throw new Error("B does not follow A's run");
    const whole = readAll(followed.attach(0));
    const reader = readRunStream(followed.attach(0));
    const first: RunStreamRecord[] = [];
    for (const record of recorded.slice(5, half)) run.publish(record);
    while (first.length < half + 1) {
      const next = await reader.next();
      if (next.done) throw new Error("ended early");
      first.push(next.value);
    }
    await reader.return(undefined);
    for (const record of recorded.slice(half)) run.publish(record);
    const resumed = readAll((await registryB.follow(b, run.runId))?.attach(half) as never);
    await registryA.finish(run, a);
    const stored = (await b.listRunRecords(meta.id, run.runId, 0)).map(
      ({ seq: _seq, runId: _runId, ...record }) => record,
    );
    expect(stored).toEqual(recorded);
    expect((await whole).slice(1)).toEqual(recorded);
    expect([...first.slice(1), ...(await resumed).slice(1)]).toEqual(recorded);
    expect(await registryB.activeEverywhere(b)).toEqual([]);
    // Finished: B follows it no more; the store serves it.
    expect(await registryB.follow(b, run.runId)).toBeNull();
  });

  it("refuses a second run in a conversation that A runs, and frees it when A's run ends", async () => {
    const { a, b, registryA, registryB } = twoInstances();
    const meta = await a.createTranscript({ dialect: "xml", model: { provider: "demo", id: "x" } });
    const run = await registryA.open({ store: a, transcriptId: meta.id, exclusive: true });
    const racing = await Promise.allSettled([
      registryB.open({ store: b, transcriptId: meta.id, exclusive: true }),
      registryB.open({ store: b, transcriptId: meta.id, exclusive: true }),
    ]);
    for (const result of racing) {
      expect(result.status).toBe("rejected");
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(RunBusyError);
    }
    await registryA.finish(run, a);
    const next = await registryB.open({ store: b, transcriptId: meta.id, exclusive: true });
    await registryB.finish(next, b);
  });

  it("a stop sent to B stops A's run at A's next read of its stop requests", async () => {
    const { a, b, registryA, registryB } = twoInstances();
    const meta = await a.createTranscript({ dialect: "xml", model: { provider: "demo", id: "x" } });
    const controller = new AbortController();
    const run = await registryA.open({ store: a, transcriptId: meta.id, controller });
    expect(await registryB.stopAnywhere(b, "no-such-run")).toBe(false);
    expect(await registryB.stopAnywhere(b, run.runId)).toBe(true);
    expect(controller.signal.aborted).toBe(false);
    expect(await registryB.applyStopRequests(b)).toEqual([]);
    expect(await registryA.applyStopRequests(a)).toEqual([run.runId]);
    expect(controller.signal.reason).toBe("user");
    await registryA.finish(run, a);
    expect(await registryB.stopAnywhere(b, run.runId)).toBe(false);
  });

  it("marks A's runs crashed only once A's lease has ended", async () => {
    const { a, b, registryA } = twoInstances();
    const meta = await a.createTranscript({ dialect: "xml", model: { provider: "demo", id: "x" } });
    await a.renewLease(registryA.instanceId, 1000);
    const run = await registryA.open({ store: a, transcriptId: meta.id });
    run.publish(recorded[0] as TranscriptRecord);
    await registryA.finish(run, a);
    const live = await registryA.open({ store: a, transcriptId: meta.id });
    await b.renewLease("instance-b", 5000);
    expect(await interruptCrashedRuns(b, () => 999, "instance-b")).toEqual([]);
    expect((await b.getRunInfo(live.runId))?.endedAt).toBeNull();
    const marked = await interruptCrashedRuns(b, () => 1000, "instance-b");
    expect(marked.map((info) => info.runId)).toEqual([live.runId]);
    const records = await b.listRunRecords(meta.id, live.runId, 0);
    expect(records.at(-1)).toMatchObject({ event: { type: "interrupt", reason: "crash" } });
    expect((await b.getRunInfo(live.runId))?.endedAt).toBe(1000);
  });

  it("B announces a run it marked crashed to its finish listeners (live OTLP export), once", async () => {
    const { a, b, registryA, registryB } = twoInstances();
    const meta = await a.createTranscript({ dialect: "xml", model: { provider: "demo", id: "x" } });
    await a.renewLease(registryA.instanceId, Date.now() - 1); // A is dead: its lease has ended
    const live = await registryA.open({ store: a, transcriptId: meta.id });
    const heard: string[] = [];
    registryB.onFinish((run) => heard.push(run.runId));
    const instance = startInstance(b, registryB, { leaseMs: 60_000, pollMs: 1000 });
    try {
      await instance.ready;
      expect(heard).toEqual([live.runId]);
      expect((await b.getRunInfo(live.runId))?.endedAt).not.toBeNull();
    } finally {
      instance.stop();
    }
  });

  it("B purges an import A was writing when it died, once A's lease has ended, not before", async () => {
    const { a, b, registryB } = twoInstances();
    const model = { provider: "demo", id: "x" };
    const importing = (id: string, instance: string) =>
      a.createTranscript({ id, dialect: "xml", model, source: "import", importInstance: instance });
    await a.renewLease("dead", Date.now() - 1);
    await a.renewLease("alive", Date.now() + 60_000);
    await importing("cut-off", "dead");
    await importing("going-on", "alive");
    await a.appendRecords("cut-off", "imported", recorded);
    const instance = startInstance(b, registryB, { leaseMs: 60_000, pollMs: 1000 });
    try {
      await instance.ready;
      while ((await b.listRunRecords("cut-off", "imported", 0)).length > 0) await pause(5);
      expect(await b.restoreTranscript("cut-off")).toBe(false);
      expect(await b.restoreTranscript("going-on")).toBe(true);
    } finally {
      instance.stop();
    }
  });

  it("A stalled past its lease: B takes its run over, A's next commit is refused and nothing A writes afterwards lands", async () => {
    const { a, b, registryA } = twoInstances();
    const meta = await a.createTranscript({ dialect: "xml", model: { provider: "demo", id: "x" } });
    await a.renewLease(registryA.instanceId, 1000);
    const controller = new AbortController();
    const run = await registryA.open({ store: a, transcriptId: meta.id, controller });
    const seen = readAll(run.attach(0));
    for (const record of recorded.slice(0, 3)) run.publish(record);
    while ((await b.listRunRecords(meta.id, run.runId, 0)).length < 3) await pause(5);
    // A stalls: its lease (to 1000) is not renewed, and B, sweeping at 1000, takes the run over.
    await b.renewLease("instance-b", 5000);
    const marked = await interruptCrashedRuns(b, () => 1000, "instance-b");
    expect(marked.map((info) => info.runId)).toEqual([run.runId]);
    // A wakes and goes on: its next commit is refused, which stops the run here.
    run.publish(recorded[3] as TranscriptRecord);
    while (!controller.signal.aborted) await pause(5);
    expect(controller.signal.reason).toBe("storage");
    for (const record of recorded.slice(4)) run.publish(record);
    const heardByA: string[] = [];
    registryA.onFinish((finished) => heardByA.push(finished.runId));
    await registryA.finish(run, a);
    expect(heardByA).toEqual([]); // B, which marked it, announced it (exported it) already

    const stored = await b.listRunRecords(meta.id, run.runId, 0);
    expect(stored.map(({ seq: _seq, runId: _runId, ...record }) => record)).toEqual([
      ...recorded.slice(0, 3),
      { kind: "event", event: expect.objectContaining({ type: "interrupt", reason: "crash" }) },
    ]);
    const records = await seen;
    expect(records.slice(1, 5)).toEqual(recorded.slice(0, 4));
    expect(records.slice(5)).toEqual([
      {
        kind: "event",
        event: expect.objectContaining({
          type: "error",
          code: "storage_failed",
          message: expect.stringMatching(/^Another instance took this run over/),
        }),
      },
    ]);
    expect((await b.getRunInfo(run.runId))?.endedAt).toBe(1000);
  });

  it("A stalled past its lease with nothing to write finds out at its next renewal and stops the run", async () => {
    const { a, b, registryA, registryB } = twoInstances();
    const meta = await a.createTranscript({ dialect: "xml", model: { provider: "demo", id: "x" } });
    const options = { leaseMs: 300, pollMs: 5 };
    let instanceA = startInstance(a, registryA, options);
    await instanceA.ready;
    const controller = new AbortController();
    const run = await registryA.open({ store: a, transcriptId: meta.id, controller });
    const seen = readAll(run.attach(0));
    run.publish(recorded[0] as TranscriptRecord);
    // Live OTLP export listens here: the run is sent once, by B that marked it, not by A too.
    const heard: string[] = [];
    registryA.onFinish((finished) => heard.push(`a:${finished.runId}`));
    registryB.onFinish((finished) => heard.push(`b:${finished.runId}`));
    const instanceB = startInstance(b, registryB, options);
    try {
      // A stalls (its timers stop, as under SIGSTOP) past its lease: B marks the run crashed.
      instanceA.stop();
      while ((await b.getRunInfo(run.runId))?.endedAt === null) await pause(5);
      expect(controller.signal.aborted).toBe(false);
      // A wakes: its renewal finds the run is no longer its own.
      instanceA = startInstance(a, registryA, options);
      await instanceA.ready;
      expect(controller.signal.reason).toBe("storage");
      run.publish(recorded[1] as TranscriptRecord);
      await registryA.finish(run, a);
    } finally {
      instanceA.stop();
      instanceB.stop();
    }
    const stored = await b.listRunRecords(meta.id, run.runId, 0);
    expect(stored.map((record) => record.kind === "event" && record.event.type)).toEqual([
      recorded[0]?.kind === "event" && recorded[0].event.type,
      "interrupt",
    ]);
    const records = await seen;
    expect(records.at(-1)).toMatchObject({
      kind: "event",
      event: { type: "error", message: expect.stringMatching(/^Another instance took/) },
    });
    expect(await registryA.endTakenOverRuns(a)).toEqual([]);
    expect(heard).toEqual([`b:${run.runId}`]);
  });

  it("keeps renewing its lease while marking a dead instance's run waits on a lock", async () => {
    const store = createMemoryStore();
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "x" },
    });
    // A run of an instance that never wrote a lease: orphaned at once.
    await store.claimRun({
      runId: "dead-run",
      transcriptId: meta.id,
      startedAt: 0,
      instanceId: "dead",
      exclusive: true,
    });
    let renewals = 0;
    // Adopting waits forever, as behind the lock of a stalled instance's open transaction.
    const stuck = new Proxy(store, {
      get(target, property, receiver) {
        if (property === "adoptRun") return () => new Promise<boolean>(() => {});
        if (property === "renewLease")
          return (instanceId: string, expiresAt: number) => {
            renewals++;
            return target.renewLease(instanceId, expiresAt);
          };
        return Reflect.get(target, property, receiver);
      },
    });
    const instance = startInstance(stuck, new RunRegistry(LIMITS, "instance-c"), {
      leaseMs: 30,
      pollMs: 5,
    });
    try {
      while (renewals < 3) await pause(5);
    } finally {
      instance.stop();
    }
  });
});
