import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TranscriptRecord } from "../protocol/records";
import { createMemoryStore, openSqliteStore } from "../store";
import { interruptCrashedRuns } from "./crash-recovery";
import { getStore } from "./store-instance";

const directory = mkdtempSync(join(tmpdir(), "wirescope-crash-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const thinkPiece: TranscriptRecord = {
  kind: "event",
  event: {
    type: "think",
    id: "r-2.t0-1",
    timestamp: 1,
    turn: 0,
    span: { start: 0, end: 12 },
    content: "Half a thou",
  },
};

describe("interruptCrashedRuns", () => {
  it("ends every run left in flight with an interrupt (crash) and leaves finished ones alone", async () => {
    const store = createMemoryStore();
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "x" },
    });
    await store.recordRunStart({ runId: "done-run", transcriptId: meta.id, startedAt: 1 });
    await store.appendRecords(meta.id, "done-run", [thinkPiece]);
    await store.recordRunEnd("done-run", 2);
    await store.recordRunStart({ runId: "cut-run-1", transcriptId: meta.id, startedAt: 3 });
    await store.appendRecords(meta.id, "cut-run-1", [thinkPiece]);
    const marked = await interruptCrashedRuns(store, () => 100);
    expect(marked.map((run) => run.runId)).toEqual(["cut-run-1"]);
    const records = (await store.getTranscript(meta.id))?.records ?? [];
    expect(records.at(-1)).toEqual({
      kind: "event",
      event: { type: "interrupt", id: "cutrun1-crash", timestamp: 100, reason: "crash" },
      seq: 3,
      runId: "cut-run-1",
    });
    expect(await store.listUnfinishedRuns()).toEqual([]);
    expect(await interruptCrashedRuns(store)).toEqual([]);
  });

  it("gives two runs whose ids begin alike interrupts of different ids (an import refuses repeats)", async () => {
    const store = createMemoryStore();
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "x" },
    });
    const runs = ["6feb20c8-a6a4-44ea-9f55-33062966fd4b", "6feb20c8-07d1-4c2e-8a11-5b0e9c3f2a77"];
    for (const [index, runId] of runs.entries()) {
      await store.recordRunStart({ runId, transcriptId: meta.id, startedAt: index });
      await store.appendRecords(meta.id, runId, [thinkPiece]);
      await interruptCrashedRuns(store, () => 100 + index);
    }
    const ids = ((await store.getTranscript(meta.id))?.records ?? []).flatMap((record) =>
      record.kind === "event" && record.event.type === "interrupt" ? [record.event.id] : [],
    );
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  it("runs when the server opens its store: a transcript cut off mid-think gets its reason", async () => {
    const dataDir = join(directory, "server");
    const before = openSqliteStore({ path: join(dataDir, "wirescope.db") });
    const meta = await before.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "x" },
    });
    await before.recordRunStart({ runId: "killed", transcriptId: meta.id, startedAt: 1 });
    await before.appendRecords(meta.id, "killed", [thinkPiece]);
    await before.close();

    const store = getStore(dataDir);
    // The very first call already sees the mark.
    const records = (await store.getTranscript(meta.id))?.records ?? [];
    expect(records.map((record) => record.kind === "event" && record.event.type)).toEqual([
      "think",
      "interrupt",
    ]);
    expect(records.at(-1)).toMatchObject({ event: { reason: "crash" }, runId: "killed" });
    expect(await store.listUnfinishedRuns()).toEqual([]);
    await store.close();
  });
});
