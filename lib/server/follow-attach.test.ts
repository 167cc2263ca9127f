/**
 * A viewer switching to another instance (`GET …/events?after=N` on B of a run A runs): it gets
 * every record after N and the end, whatever B's store reads had seen when it arrived, and a
 * store read that fails meanwhile is retried, or the viewer told — never a clean-looking end
 * without the run's last records. The process's registry is B here; A is a second registry on
 * the same store, as a second server on one database is.
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { type RunStreamRecord, readRunStream } from "../client/run-stream";
import type { TranscriptRecord } from "../protocol/records";
import { recordRun } from "../replay/testing";
import { createMemoryStore, type Store } from "../store";
import { runEvents } from "./run-events";
import { RunRegistry, runRegistry } from "./run-registry";
import { TAIL_READ_RETRY_MS } from "./run-tail";

const LIMITS = { bufferBytes: 64 * 1024, maxLagBytes: 4 * 1024 * 1024 };
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

let recorded: TranscriptRecord[] = [];
beforeAll(async () => {
  recorded = (await recordRun({ message: "list the files", dialect: "xml" })).records;
  expect(recorded.length).toBeGreaterThan(10);
  runRegistry().pollMs = 5;
});
afterEach(() => {
  runRegistry().followReadRetryMs = TAIL_READ_RETRY_MS;
});

/** B's view of the store: `before(method)` runs ahead of each call (it may wait or throw). */
function storeOfB(store: Store, before: (method: string) => Promise<void> | void): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => {
        await before(String(property));
        return value.apply(target, args);
      };
    },
  });
}

async function startOnA(store: Store) {
  const registryA = new RunRegistry(LIMITS, "instance-a");
  const meta = await store.createTranscript({
    dialect: "xml",
    model: { provider: "demo", id: "x" },
  });
  const run = await registryA.open({
    store,
    transcriptId: meta.id,
    controller: new AbortController(),
  });
  return { registryA, run, transcriptId: meta.id };
}

async function storedCount(store: Store, transcriptId: string, runId: string): Promise<number> {
  return (await store.listRunRecords(transcriptId, runId, 0)).length;
}

async function publishStored(
  store: Store,
  run: { publish(r: TranscriptRecord): void; transcriptId: string; runId: string },
  from: number,
  to: number,
) {
  for (const record of recorded.slice(from, to)) run.publish(record);
  while ((await storedCount(store, run.transcriptId, run.runId)) < to) await pause(2);
}

/** Every record of the stream, or "hung" if it has not ended `graceMs` after `ended` settles. */
async function readUntilEnd(
  body: ReadableStream<Uint8Array>,
  ended: Promise<unknown>,
  graceMs = 3000,
): Promise<RunStreamRecord[] | "hung"> {
  const records: RunStreamRecord[] = [];
  const all = (async () => {
    for await (const record of readRunStream(body)) records.push(record);
    return records;
  })();
  const hung = ended.then(() => pause(graceMs)).then(() => "hung" as const);
  const answer = await Promise.race([all, hung]);
  if (answer === "hung") await body.cancel().catch(() => undefined);
  return answer;
}

/**
 * A viewer on B that asked for `after=8`: A stores the rest of the run and finishes it; the
 * viewer must get every record after its 8 and then its stream's end (never hang).
 */
async function expectTheRestAfter8(
  answer: Awaited<ReturnType<typeof runEvents>>,
  store: Store,
  registryA: RunRegistry,
  run: Awaited<ReturnType<typeof startOnA>>["run"],
): Promise<void> {
  if (!answer.ok) throw new Error(answer.error);
  const finished = (async () => {
    await publishStored(store, run, 8, recorded.length);
    await registryA.finish(run, store);
  })();
  const got = await readUntilEnd(answer.body, finished);
  expect(got).not.toBe("hung");
  expect((got as RunStreamRecord[]).slice(1)).toEqual(recorded.slice(8));
}

describe("a viewer switching to another instance", () => {
  it("gets every record after its count and the end when B reads new records while it attaches", async () => {
    const store = createMemoryStore();
    const { registryA, run } = await startOnA(store);
    await publishStored(store, run, 0, 5);
    // B's first read of the run sees 5 records; A stores 3 more before B answers the viewer,
    // who comes from A's stream with 8.
    let first = true;
    const lateRead = new Proxy(store, {
      get(target, property, receiver) {
        if (property !== "listRunRecords") return Reflect.get(target, property, receiver);
        return async (...args: Parameters<Store["listRunRecords"]>) => {
          const records = await target.listRunRecords(...args);
          if (first) {
            first = false;
            await publishStored(store, run, 5, 8);
          }
          return records;
        };
      },
    });
    await expectTheRestAfter8(await runEvents(run.runId, "8", lateRead), store, registryA, run);
  });

  it("waits for a count B's store reads have not reached yet instead of refusing it", async () => {
    const store = createMemoryStore();
    const { registryA, run } = await startOnA(store);
    await publishStored(store, run, 0, 5);
    // The viewer had 8 from A's stream; A stores them a little later.
    const answered = runEvents(run.runId, "8", store);
    await pause(30);
    await publishStored(store, run, 5, 8);
    await expectTheRestAfter8(await answered, store, registryA, run);
  });

  it("still refuses a count the run never reaches (it ends first)", async () => {
    const store = createMemoryStore();
    const { registryA, run } = await startOnA(store);
    await publishStored(store, run, 0, 3);
    const answered = runEvents(run.runId, "50", store);
    await pause(20);
    await registryA.finish(run, store);
    expect(await answered).toMatchObject({ ok: false, status: 400 });
  });
});

describe("a follower whose store reads fail", () => {
  it("retries them: a short outage costs its viewer no record, and it sees the end", async () => {
    const store = createMemoryStore();
    const { registryA, run } = await startOnA(store);
    const outage = { down: false, failed: 0 };
    const b = storeOfB(store, () => {
      if (!outage.down) return;
      outage.failed++;
      throw new Error("connection refused");
    });
    await publishStored(store, run, 0, 4);
    const answer = await runEvents(run.runId, "0", b);
    if (!answer.ok) throw new Error(answer.error);
    const finished = (async () => {
      outage.down = true;
      await publishStored(store, run, 4, recorded.length);
      await registryA.finish(run, store);
      while (outage.failed < 5) await pause(2);
      outage.down = false;
    })();
    const got = await readUntilEnd(answer.body, finished);
    expect(got).not.toBe("hung");
    expect((got as RunStreamRecord[]).slice(1)).toEqual(recorded);
  });

  it("tells its viewers storage_failed, as their last record, once the reads have failed too long", async () => {
    const store = createMemoryStore();
    const { registryA, run } = await startOnA(store);
    runRegistry().followReadRetryMs = 30;
    const outage = { down: false };
    const b = storeOfB(store, () => {
      if (outage.down) throw new Error("connection refused");
    });
    await publishStored(store, run, 0, 4);
    const answer = await runEvents(run.runId, "0", b);
    if (!answer.ok) throw new Error(answer.error);
    outage.down = true;
    await publishStored(store, run, 4, 8);
    const got = await readUntilEnd(answer.body, pause(200));
    expect(got).not.toBe("hung");
    const records = got as RunStreamRecord[];
    expect(records.at(-1)).toMatchObject({ kind: "event", event: { code: "storage_failed" } });
    expect(records.slice(1, -1)).toEqual(recorded.slice(0, records.length - 2));
    await registryA.finish(run, store);
  });
});
