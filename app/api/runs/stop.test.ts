/**
 * `POST /api/runs/:runId/stop` answers what happened: 200 when the stop was sent, 202 when one
 * was sent already and the run is still winding down (here, or on another instance: the store
 * keeps when a stop was asked for), 409 (saying how) once it has ended, 404
 * for no such run. And `GET /api/runs?active=1` does not list the run of a transcript just
 * deleted, though it is still winding down.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProtocolEvent } from "@/lib/protocol";
import { readConfig } from "@/lib/server/config";
import type { LiveRun } from "@/lib/server/live-run";
import { RunRegistry, runRegistry } from "@/lib/server/run-registry";
import { getStore } from "@/lib/server/store-instance";
import { openSqliteStore, type Store } from "@/lib/store";
import { DELETE as remove } from "../transcripts/[id]/route";
import { POST as stopRoute } from "./[runId]/stop/route";
import { GET as list } from "./route";
import { stalledCapture } from "./stalled-capture.testing";

let store: Store;

beforeAll(async () => {
  process.env.WIRESCOPE_DATA_DIR = await mkdtemp(join(tmpdir(), "wirescope-stop-"));
  store = getStore(readConfig().dataDir);
});

const stop = (runId: string) =>
  stopRoute(new Request(`http://localhost/api/runs/${runId}/stop`, { method: "POST" }), {
    params: Promise.resolve({ runId }),
  });

/** A run of this instance whose producer ignores the stop until the test finishes it. */
async function openRun(registry = runRegistry()): Promise<LiveRun> {
  const meta = await store.createTranscript({
    dialect: "xml",
    model: { provider: "demo", id: "x" },
  });
  return registry.open({ store, transcriptId: meta.id, controller: new AbortController() });
}

async function end(run: LiveRun, event: ProtocolEvent): Promise<void> {
  run.publish({ kind: "event", event });
  await runRegistry().finish(run, store);
}

const interrupt: ProtocolEvent = { type: "interrupt", id: "i", timestamp: 1, reason: "user" };

describe("POST /api/runs/:runId/stop", () => {
  it("200 for the stop, 202 for a repeated one while it winds down, then 409 saying it was interrupted", async () => {
    const run = await openRun();
    const first = await stop(run.runId);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ stopped: run.runId });
    const again = await stop(run.runId);
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({
      stopping: run.runId,
      message: expect.stringMatching(/is already stopping \(user\)/),
    });
    await end(run, interrupt);
    const after = await stop(run.runId);
    expect(after.status).toBe(409);
    expect(await after.json()).toEqual({
      error: `runId: run "${run.runId}" has already ended (interrupt: user); there is nothing to stop.`,
      ended: { how: "interrupt", reason: "user" },
    });
  });

  it("404 for an ended run of a deleted transcript, as its events say; 409 again once restored", async () => {
    const run = await openRun();
    await end(run, interrupt);
    expect(await store.deleteTranscript(run.transcriptId)).toBe(true);
    const gone = await stop(run.runId);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({
      error: `runId: no run "${run.runId}" (its transcript was deleted).`,
    });
    expect(await store.restoreTranscript(run.transcriptId)).toBe(true);
    expect(await (await stop(run.runId)).json()).toMatchObject({
      ended: { how: "interrupt", reason: "user" },
    });
  });

  it("409 saying it ended for a run that ran to its end; 404 for no such run", async () => {
    const run = await openRun();
    await end(run, { type: "end", id: "e", timestamp: 1 });
    const after = await stop(run.runId);
    expect(after.status).toBe(409);
    expect(await after.json()).toMatchObject({ ended: { how: "end" } });
    const unknown = await stop("no-such-run");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: 'runId: no run "no-such-run".' });
  });

  it("two stops at once, here and through another instance: one 200, the other 202, whichever came first", async () => {
    // Another instance's stop route asks through the store (`requestRunStop`): "already" is its 202.
    const here = await openRun();
    expect((await stop(here.runId)).status).toBe(200);
    expect(await store.requestRunStop(here.runId, Date.now())).toBe("already");
    await end(here, interrupt);
    const there = await openRun();
    expect(await store.requestRunStop(there.runId, Date.now())).toBe("requested");
    const second = await stop(there.runId);
    expect(second.status).toBe(202);
    expect(await second.json()).toMatchObject({ stopping: there.runId });
    await end(there, interrupt);
  });

  it("another instance's run: 200 (asked through the store), 409 once its end is noted", async () => {
    const other = new RunRegistry({ bufferBytes: 64 * 1024, maxLagBytes: 1024 * 1024 }, "other");
    const run = await openRun(other);
    expect((await stop(run.runId)).status).toBe(200);
    expect(await other.applyStopRequests(store)).toEqual([run.runId]);
    run.publish({ kind: "event", event: interrupt });
    await other.finish(run, store);
    expect((await stop(run.runId)).status).toBe(409);
  });

  it("another instance's run on its own connection to the database: 200, then 202 for a repeated stop, 409 once ended", async () => {
    // Instance B: its own registry on its own connection to the route's SQLite file, as a
    // second server sharing the database has; it knows of the stop only through the store.
    const other = openSqliteStore({ path: join(readConfig().dataDir, "wirescope.db") });
    const registry = new RunRegistry({ bufferBytes: 64 * 1024, maxLagBytes: 1024 * 1024 }, "b");
    try {
      const meta = await other.createTranscript({
        dialect: "xml",
        model: { provider: "demo", id: "x" },
      });
      const run = await registry.open({
        store: other,
        transcriptId: meta.id,
        controller: new AbortController(),
      });
      expect((await stop(run.runId)).status).toBe(200);
      // B has not read its stop requests yet: the run goes on, stopping.
      const again = await stop(run.runId);
      expect(again.status).toBe(202);
      expect(await again.json()).toEqual({
        stopping: run.runId,
        message: expect.stringMatching(/is already stopping \(user\)/),
      });
      expect(await registry.applyStopRequests(other)).toEqual([run.runId]);
      expect((await stop(run.runId)).status).toBe(202);
      run.publish({ kind: "event", event: interrupt });
      await registry.finish(run, other);
      expect((await stop(run.runId)).status).toBe(409);
    } finally {
      await other.close();
    }
  });

  it("a captured call: 200, then 409 saying it was interrupted by the user", async () => {
    const { runId, reader, proxy, close } = await stalledCapture(store);
    try {
      expect((await stop(runId)).status).toBe(200);
      await reader.read().catch(() => undefined);
      await proxy.settled();
      const after = await stop(runId);
      expect(after.status).toBe(409);
      expect(await after.json()).toMatchObject({ ended: { how: "interrupt", reason: "user" } });
    } finally {
      await close();
    }
  });
});

describe("GET /api/runs?active=1 after DELETE /api/transcripts/:id", () => {
  afterAll(async () => {
    for (const run of runRegistry().active()) runRegistry().get(run.runId)?.stop("user");
  });

  it("does not list the deleted transcript's run, though it is still winding down", async () => {
    const run = await openRun();
    const listed = async () => {
      const response = await list(new Request("http://localhost/api/runs?active=1"));
      return ((await response.json()) as { runs: { runId: string }[] }).runs.map(
        (active) => active.runId,
      );
    };
    expect(await listed()).toContain(run.runId);
    const deleted = await remove(
      new Request(`http://localhost/api/transcripts/${run.transcriptId}`, { method: "DELETE" }),
      { params: Promise.resolve({ id: run.transcriptId }) },
    );
    expect(await deleted.json()).toEqual({ deleted: run.transcriptId, stopped: [run.runId] });
    // The producer has not wound down yet: the run is still in the registry.
    expect(runRegistry().get(run.runId)?.finished).toBe(false);
    expect(await listed()).not.toContain(run.runId);
    await end(run, interrupt);
  });
});
