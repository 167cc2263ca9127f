/**
 * `GET /api/runs/:runId/events` for a deleted transcript's runs: 404 like the transcript's other
 * URLs, for a finished run, a run still winding down here, another instance's and a captured
 * call; a stream open when the transcript is deleted ends then, not when the stopped run has
 * wound down. Restoring the transcript brings its runs back.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type RunStreamRecord, readRunStream } from "@/lib/client/run-stream";
import type { ProtocolEvent } from "@/lib/protocol";
import type { TranscriptRecord } from "@/lib/protocol/records";
import { readConfig } from "@/lib/server/config";
import type { LiveRun } from "@/lib/server/live-run";
import { runEvents } from "@/lib/server/run-events";
import { RunRegistry, runRegistry } from "@/lib/server/run-registry";
import { startRun } from "@/lib/server/runs";
import { getStore } from "@/lib/server/store-instance";
import { openSqliteStore, type Store } from "@/lib/store";
import { POST as restore } from "../transcripts/[id]/restore/route";
import { DELETE as remove } from "../transcripts/[id]/route";
import { GET as events } from "./[runId]/events/route";
import { stalledCapture } from "./stalled-capture.testing";

let store: Store;

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-events-deleted-"));
  store = getStore(readConfig().dataDir);
});

const watch = (runId: string) =>
  events(new Request(`http://localhost/api/runs/${runId}/events`), {
    params: Promise.resolve({ runId }),
  });

const removeTranscript = (id: string) =>
  remove(new Request(`http://localhost/api/transcripts/${id}`, { method: "DELETE" }), {
    params: Promise.resolve({ id }),
  });

async function collect(response: Response): Promise<RunStreamRecord[]> {
  if (response.body === null) throw new Error("no body");
  const records: RunStreamRecord[] = [];
  for await (const record of readRunStream(response.body)) records.push(record);
  return records;
}

const chunk = (text: string): TranscriptRecord => ({ kind: "chunk", turn: 1, t: 0, text });
const interrupt: ProtocolEvent = { type: "interrupt", id: "i", timestamp: 1, reason: "user" };

/** A run whose producer ignores the stop until the test finishes it (a slow tool, say). */
async function openRun(registry: RunRegistry, on: Store): Promise<LiveRun> {
  const meta = await on.createTranscript({ dialect: "xml", model: { provider: "demo", id: "x" } });
  return registry.open({ store: on, transcriptId: meta.id, controller: new AbortController() });
}

async function expectGone(runId: string): Promise<void> {
  const response = await watch(runId);
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({
    error: `runId: no run "${runId}" (its transcript was deleted).`,
  });
}

describe("GET /api/runs/:runId/events of a deleted transcript's run", () => {
  it("a finished run: 404 once deleted, served again once restored", async () => {
    const run = await openRun(runRegistry(), store);
    run.publish(chunk("hello"));
    await runRegistry().finish(run, store);
    expect((await watch(run.runId)).status).toBe(200);
    expect((await removeTranscript(run.transcriptId)).status).toBe(200);
    await expectGone(run.runId);
    const restored = await restore(
      new Request(`http://localhost/api/transcripts/${run.transcriptId}/restore`, {
        method: "POST",
      }),
      { params: Promise.resolve({ id: run.transcriptId }) },
    );
    expect(restored.status).toBe(200);
    const records = await collect(await watch(run.runId));
    expect(records.slice(1)).toEqual([chunk("hello")]);
  });

  it("a run still winding down here: 404, and its streams open at the delete end then, saying so", async () => {
    const registry = runRegistry();
    const run = await openRun(registry, store);
    run.publish(chunk("before"));
    // The starter's own stream (what POST /api/runs answers) and a watcher's.
    const starter = collect(new Response(run.attach(0)));
    const open = readRunStream((await watch(run.runId)).body as ReadableStream<Uint8Array>);
    expect((await open.next()).value).toMatchObject({ kind: "run", runId: run.runId });
    expect((await open.next()).value).toEqual(chunk("before"));
    expect(await removeTranscript(run.transcriptId)).toMatchObject({ status: 200 });
    // The producer has not wound down: the run is still here, and publishes more.
    expect(registry.get(run.runId)?.finished).toBe(false);
    await expectGone(run.runId);
    run.publish(chunk("after the delete"));
    run.publish({ kind: "event", event: interrupt });
    await registry.finish(run, store);
    // The open streams ended at the delete, saying why: nothing published afterwards reached them.
    const rest: RunStreamRecord[] = [];
    for await (const record of open) rest.push(record);
    const deleted = { kind: "deleted", transcriptId: run.transcriptId };
    expect(rest).toEqual([deleted]);
    expect((await starter).slice(1)).toEqual([chunk("before"), deleted]);
    await expectGone(run.runId);
  });

  it("another instance's run, followed here through the store: 404", async () => {
    const other = openSqliteStore({ path: join(readConfig().dataDir, "wirescope.db") });
    const registry = new RunRegistry({ bufferBytes: 64 * 1024, maxLagBytes: 1024 * 1024 }, "b");
    try {
      const live = await openRun(registry, other);
      const followed = await watch(live.runId);
      expect(followed.status).toBe(200);
      await followed.body?.cancel();
      // Deleted by instance B: this instance learns of it from the store alone.
      expect(await other.deleteTranscript(live.transcriptId)).toBe(true);
      await expectGone(live.runId);
      live.publish({ kind: "event", event: interrupt });
      await registry.finish(live, other);
    } finally {
      await other.close();
    }
  });

  it("another instance's run followed here, deleted here: the stream here ends saying so", async () => {
    const other = openSqliteStore({ path: join(readConfig().dataDir, "wirescope.db") });
    const registry = new RunRegistry({ bufferBytes: 64 * 1024, maxLagBytes: 1024 * 1024 }, "b");
    try {
      const live = await openRun(registry, other);
      const followed = collect(await watch(live.runId));
      expect((await removeTranscript(live.transcriptId)).status).toBe(200);
      expect((await followed).at(-1)).toEqual({ kind: "deleted", transcriptId: live.transcriptId });
      live.publish({ kind: "event", event: interrupt });
      await registry.finish(live, other);
    } finally {
      await other.close();
    }
  });

  it("a captured call: 404, and a stream open at the delete ends then", async () => {
    const captured = await stalledCapture(store);
    try {
      const open = collect(await watch(captured.runId));
      expect((await removeTranscript(captured.transcriptId)).status).toBe(200);
      await expectGone(captured.runId);
      const seen = await open;
      expect(seen[0]).toMatchObject({ kind: "run", runId: captured.runId });
      expect(seen.at(-1)).toEqual({ kind: "deleted", transcriptId: captured.transcriptId });
      await captured.reader.read().catch(() => undefined);
      await captured.proxy.settled();
      await expectGone(captured.runId);
    } finally {
      await captured.close();
    }
  });
});

describe("a DELETE racing a viewer or a start", () => {
  it("lands during the events route's transcript check: the stream it answers ends with deleted", async () => {
    const registry = runRegistry();
    const run = await openRun(registry, store);
    run.publish(chunk("before"));
    // The events route's store: its check is answered as it was, and the whole DELETE runs
    // before the answer gets back to the route.
    const racing = new Proxy(store, {
      get(target, key) {
        if (key !== "readRecords") return Reflect.get(target, key);
        return async (...args: Parameters<Store["readRecords"]>) => {
          const answer = await target.readRecords(...args);
          expect((await removeTranscript(run.transcriptId)).status).toBe(200);
          return answer;
        };
      },
    });
    const answer = await runEvents(run.runId, null, racing);
    if (!answer.ok) throw new Error(answer.error);
    run.publish(chunk("after the delete"));
    run.publish({ kind: "event", event: interrupt });
    await registry.finish(run, store);
    const seen = await collect(new Response(answer.body));
    expect(seen.slice(1)).toEqual([{ kind: "deleted", transcriptId: run.transcriptId }]);
  });

  it("lands while a continuing run is claimed: the start's own stream ends with deleted, the run stops", async () => {
    const config = { ...readConfig(), demoPaceMs: 2 };
    const first = await startRun({ message: "hello", dialect: "xml" }, { store, config });
    await collect(new Response(first.body));
    while (runRegistry().active().length > 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const id = first.transcriptId;
    const racing = new Proxy(store, {
      get(target, key) {
        if (key !== "claimRun") return Reflect.get(target, key);
        return async (...args: Parameters<Store["claimRun"]>) => {
          const claimed = await target.claimRun(...args);
          expect((await removeTranscript(id)).status).toBe(200);
          return claimed;
        };
      },
    });
    const second = await startRun(
      { message: "again", dialect: "xml", transcriptId: id },
      { store: racing, config },
    );
    const seen = await collect(new Response(second.body));
    expect(seen.slice(1)).toEqual([{ kind: "deleted", transcriptId: id }]);
    while (runRegistry().active().length > 0)
      await new Promise((resolve) => setTimeout(resolve, 5));
    const stored = await store.listRunRecords(id, second.runId, 0);
    expect(stored.at(-1)).toMatchObject({
      kind: "event",
      event: { type: "interrupt", reason: "user" },
    });
  });
});
