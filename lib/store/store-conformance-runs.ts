/**
 * The shared suite's runs part (run from `store.test.ts` against each implementation): a run's
 * start and end (docs/live-runs.md's crash marking reads the unfinished ones), grouped appends across
 * runs, and one run's records for reattaching.
 */
import { describe, expect, it } from "vitest";
import type { Store, TranscriptRecord } from "./store";
import { chunk, NEW, type OpenStore, START, storeFixture, user } from "./store-conformance";

export function describeRunConformance(name: string, open: OpenStore): void {
  describe(`Store conformance, runs: ${name}`, () => {
    const fixture = storeFixture(open);

    describe("runs", () => {
      it("tracks a run from start to end; an unfinished one is listed until it ends", async () => {
        await fixture.store.createTranscript(NEW);
        expect(await fixture.store.getRunInfo("run-1")).toBeNull();
        await fixture.store.recordRunStart({
          runId: "run-1",
          transcriptId: "id-1",
          startedAt: START,
        });
        await fixture.store.recordRunStart({
          runId: "run-0",
          transcriptId: "id-1",
          startedAt: START + 5,
        });
        expect(await fixture.store.getRunInfo("run-1")).toEqual({
          runId: "run-1",
          transcriptId: "id-1",
          startedAt: START,
          endedAt: null,
          stopRequestedAt: null,
        });
        expect((await fixture.store.listUnfinishedRuns()).map((run) => run.runId)).toEqual([
          "run-1",
          "run-0",
        ]);
        await fixture.store.recordRunEnd("run-1", START + 10);
        await fixture.store.recordRunEnd("run-1", START + 99);
        await fixture.store.recordRunEnd("never-started", START);
        expect((await fixture.store.getRunInfo("run-1"))?.endedAt).toBe(START + 10);
        expect((await fixture.store.listUnfinishedRuns()).map((run) => run.runId)).toEqual([
          "run-0",
        ]);
      });

      it("refuses a run of an unknown transcript and a run id used twice", async () => {
        await expect(
          fixture.store.recordRunStart({ runId: "r", transcriptId: "missing", startedAt: START }),
        ).rejects.toMatchObject({ code: "not_found" });
        await fixture.store.createTranscript(NEW);
        await fixture.store.recordRunStart({ runId: "r", transcriptId: "id-1", startedAt: START });
        await expect(
          fixture.store.recordRunStart({ runId: "r", transcriptId: "id-1", startedAt: START }),
        ).rejects.toMatchObject({ code: "conflict" });
      });

      it("appends several runs' batches at once; a bad batch leaves the others in", async () => {
        await fixture.store.createTranscript({ ...NEW, id: "a" });
        await fixture.store.createTranscript({ ...NEW, id: "b" });
        await fixture.store.appendRecords("a", "old", [chunk("0")]);
        const bad = { kind: "chunk", turn: 0, t: 1n, text: "x" } as unknown as TranscriptRecord;
        const results = await fixture.store.appendRunRecords([
          { transcriptId: "a", runId: "run-a", records: [chunk("1"), chunk("2")] },
          { transcriptId: "missing", runId: "run-m", records: [chunk("x")] },
          { transcriptId: "b", runId: "run-b", records: [chunk("ok"), bad] },
          { transcriptId: "b", runId: "run-b", records: [user("u1", "hi")] },
          { transcriptId: "a", runId: "run-a", records: [chunk("3")] },
        ]);
        expect(results.map((result) => (result.ok ? result.lastSeq : "failed"))).toEqual([
          3,
          "failed",
          "failed",
          1,
          4,
        ]);
        expect(results[1]).toMatchObject({ ok: false, error: { code: "not_found" } });
        expect(results[2]).toMatchObject({ ok: false, error: { code: "invalid" } });
        const a = (await fixture.store.getTranscript("a"))?.records ?? [];
        expect(a.map((record) => [record.seq, record.runId])).toEqual([
          [1, "old"],
          [2, "run-a"],
          [3, "run-a"],
          [4, "run-a"],
        ]);
        expect((await fixture.store.getTranscript("b"))?.records).toEqual([
          { ...user("u1", "hi"), seq: 1, runId: "run-b" },
        ]);
        expect(await fixture.store.appendRunRecords([])).toEqual([]);
      });

      it("fences a batch written for an instance: stored while the run is its own, refused once another adopted it", async () => {
        await fixture.store.createTranscript(NEW);
        await fixture.store.renewLease("A", START + 100);
        await fixture.store.renewLease("B", START + 1000);
        const claim = { transcriptId: "id-1", startedAt: START, exclusive: false };
        await fixture.store.claimRun({ ...claim, runId: "run-a", instanceId: "A" });
        await fixture.store.claimRun({ ...claim, runId: "run-b", instanceId: "B" });
        const fromA = (text: string) => ({
          transcriptId: "id-1",
          runId: "run-a",
          records: [chunk(text)],
          instanceId: "A",
        });
        const lastSeqs = (results: Awaited<ReturnType<Store["appendRunRecords"]>>) =>
          results.map((result) => (result.ok ? result.lastSeq : result.error));
        expect(lastSeqs(await fixture.store.appendRunRecords([fromA("a1")]))).toEqual([1]);
        // A stalls past its lease; B adopts its run (and marks it crashed, unfenced).
        expect(await fixture.store.adoptRun("run-a", "B", START + 100)).toBe(true);
        const results = await fixture.store.appendRunRecords([
          fromA("a2"),
          { transcriptId: "id-1", runId: "run-b", records: [chunk("b1")], instanceId: "B" },
          { ...fromA("a3"), instanceId: "A" },
          { transcriptId: "id-1", runId: "run-a", records: [chunk("crash")] },
          { ...fromA("late"), runId: "never-claimed" },
        ]);
        expect(lastSeqs(results)).toEqual([
          expect.objectContaining({ code: "taken_over" }),
          2,
          expect.objectContaining({ code: "taken_over" }),
          3,
          expect.objectContaining({ code: "taken_over" }),
        ]);
        // Its new holder writes; once the run has ended, nobody does.
        expect(
          lastSeqs(await fixture.store.appendRunRecords([{ ...fromA("b"), instanceId: "B" }])),
        ).toEqual([4]);
        await fixture.store.recordRunEnd("run-a", START + 101);
        expect(
          lastSeqs(await fixture.store.appendRunRecords([{ ...fromA("after"), instanceId: "B" }])),
        ).toEqual([expect.objectContaining({ code: "taken_over" })]);
        const stored = (await fixture.store.getTranscript("id-1"))?.records ?? [];
        expect(
          stored.map((record) => [record.runId, record.kind === "chunk" && record.text]),
        ).toEqual([
          ["run-a", "a1"],
          ["run-b", "b1"],
          ["run-a", "crash"],
          ["run-a", "b"],
        ]);
      });

      it("lists the unfinished runs an instance holds, claimed or adopted", async () => {
        await fixture.store.createTranscript(NEW);
        await fixture.store.createTranscript({ ...NEW, id: "t2" });
        await fixture.store.renewLease("A", START + 100);
        await fixture.store.claimRun({
          runId: "run-2",
          transcriptId: "t2",
          startedAt: START + 2,
          instanceId: "A",
          exclusive: true,
        });
        await fixture.store.claimRun({
          runId: "run-1",
          transcriptId: "id-1",
          startedAt: START + 1,
          instanceId: "A",
          exclusive: true,
        });
        await fixture.store.recordRunStart({
          runId: "legacy",
          transcriptId: "id-1",
          startedAt: START,
        });
        expect(await fixture.store.listInstanceRuns("A")).toEqual(["run-1", "run-2"]);
        expect(await fixture.store.listInstanceRuns("B")).toEqual([]);
        expect(await fixture.store.adoptRun("run-2", "B", START + 100)).toBe(true);
        expect(await fixture.store.adoptRun("legacy", "B", START)).toBe(true);
        expect(await fixture.store.listInstanceRuns("A")).toEqual(["run-1"]);
        expect(await fixture.store.listInstanceRuns("B")).toEqual(["legacy", "run-2"]);
        await fixture.store.recordRunEnd("run-1", START + 3);
        expect(await fixture.store.listInstanceRuns("A")).toEqual([]);
      });

      it("lists one run's records after a count", async () => {
        await fixture.store.createTranscript(NEW);
        await fixture.store.appendRecords("id-1", "first", [user("u1", "a"), chunk("x")]);
        await fixture.store.appendRecords("id-1", "second", [
          user("u2", "b"),
          chunk("y"),
          chunk("z"),
        ]);
        expect(await fixture.store.listRunRecords("id-1", "second", 0)).toEqual([
          { ...user("u2", "b"), seq: 3, runId: "second" },
          { ...chunk("y"), seq: 4, runId: "second" },
          { ...chunk("z"), seq: 5, runId: "second" },
        ]);
        expect((await fixture.store.listRunRecords("id-1", "second", 2)).map((r) => r.seq)).toEqual(
          [5],
        );
        expect(await fixture.store.listRunRecords("id-1", "second", 3)).toEqual([]);
        expect(await fixture.store.listRunRecords("id-1", "nobody", 0)).toEqual([]);
        expect(await fixture.store.listRunRecords("missing", "second", 0)).toEqual([]);
      });
    });
  });
}
