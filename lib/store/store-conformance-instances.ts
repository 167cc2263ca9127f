/**
 * The shared suite's instances part (run from `store.test.ts` against each implementation):
 * what several server instances on one database rely on — the atomic one-run-per-conversation
 * claim, leases, adopting the runs of an instance whose lease ended, stop requests passed
 * through the store, and the unfinished runs with their owners and record counts.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { RunClaim } from "./store";
import { chunk, NEW, type OpenStore, START, storeFixture, user } from "./store-conformance";

function claim(runId: string, instanceId: string, exclusive = true): RunClaim {
  return { runId, transcriptId: "id-1", startedAt: START, instanceId, exclusive };
}

export function describeInstanceConformance(name: string, open: OpenStore): void {
  describe(`Store conformance, instances: ${name}`, () => {
    const fixture = storeFixture(open);

    beforeEach(async () => {
      await fixture.store.createTranscript(NEW);
    });

    it("claims a conversation for one run at a time; a finished run frees it", async () => {
      expect(await fixture.store.claimRun(claim("run-a", "A"))).toEqual({ ok: true });
      expect(await fixture.store.claimRun(claim("run-b", "B"))).toEqual({
        ok: false,
        runId: "run-a",
      });
      expect(await fixture.store.getRunInfo("run-b")).toBeNull();
      // Not exclusive (a capture's turn): recorded beside the run in progress.
      expect(await fixture.store.claimRun(claim("capture", "B", false))).toEqual({ ok: true });
      await fixture.store.recordRunEnd("run-a", START + 1);
      expect(await fixture.store.claimRun(claim("run-b", "B"))).toEqual({
        ok: false,
        runId: "capture",
      });
      await fixture.store.recordRunEnd("capture", START + 1);
      expect(await fixture.store.claimRun(claim("run-b", "B"))).toEqual({ ok: true });
      expect(await fixture.store.getRunInfo("run-b")).toEqual({
        runId: "run-b",
        transcriptId: "id-1",
        startedAt: START,
        endedAt: null,
        stopRequestedAt: null,
      });
    });

    it("gives a conversation to exactly one of many racing claims", async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, index) => fixture.store.claimRun(claim(`run-${index}`, "X"))),
      );
      const winners = results.filter((result) => result.ok);
      expect(winners).toHaveLength(1);
      expect((await fixture.store.listUnfinishedRuns()).map((run) => run.runId)).toHaveLength(1);
    });

    it("rejects a claim for an unknown transcript or a run id used twice", async () => {
      await expect(
        fixture.store.claimRun({ ...claim("r", "A"), transcriptId: "missing" }),
      ).rejects.toMatchObject({ code: "not_found" });
      await fixture.store.claimRun(claim("r", "A", false));
      await expect(fixture.store.claimRun(claim("r", "A", false))).rejects.toMatchObject({
        code: "conflict",
      });
    });

    it("orphans a run only once its instance's lease has ended, and lets one instance adopt it", async () => {
      await fixture.store.renewLease("A", START + 100);
      await fixture.store.claimRun(claim("run-a", "A"));
      await fixture.store.recordRunStart({
        runId: "legacy",
        transcriptId: "id-1",
        startedAt: START + 1,
      });
      await fixture.store.createTranscript({ ...NEW, id: "t2" });
      await fixture.store.claimRun({ ...claim("unleased", "Z"), transcriptId: "t2" });
      const orphans = async (at: number) =>
        (await fixture.store.listOrphanedRuns(at)).map((run) => run.runId);
      // No instance (an older server's run) or no lease ever written: orphaned at once.
      expect(await orphans(START + 99)).toEqual(["unleased", "legacy"]);
      expect(await fixture.store.adoptRun("run-a", "B", START + 99)).toBe(false);
      // The lease is live strictly before its end.
      expect(await orphans(START + 100)).toEqual(["run-a", "unleased", "legacy"]);
      await fixture.store.renewLease("A", START + 200);
      expect(await orphans(START + 150)).toEqual(["unleased", "legacy"]);
      await fixture.store.renewLease("B", START + 1000);
      expect(await fixture.store.adoptRun("run-a", "B", START + 200)).toBe(true);
      // Adopted: B's lease now vouches for it, so a third instance cannot take it too.
      expect(await fixture.store.adoptRun("run-a", "C", START + 200)).toBe(false);
      expect(await orphans(START + 200)).toEqual(["unleased", "legacy"]);
      expect(await fixture.store.adoptRun("legacy", "B", START)).toBe(true);
      await fixture.store.recordRunEnd("unleased", START + 2);
      expect(await fixture.store.adoptRun("unleased", "B", START + 200)).toBe(false);
      expect(await fixture.store.adoptRun("never-started", "B", START + 200)).toBe(false);
      expect(await orphans(START + 5000)).toEqual(["run-a", "legacy"]);
    });

    it("passes a stop request to the run's instance until the run ends", async () => {
      await fixture.store.claimRun(claim("run-a", "A"));
      expect(await fixture.store.listStopRequests("A")).toEqual([]);
      expect((await fixture.store.getRunInfo("run-a"))?.stopRequestedAt).toBeNull();
      expect(await fixture.store.requestRunStop("run-a", START + 1)).toBe("requested");
      expect(await fixture.store.requestRunStop("run-a", START + 2)).toBe("already");
      // The first request's time, kept: a repeated stop is told apart from the first by it.
      expect((await fixture.store.getRunInfo("run-a"))?.stopRequestedAt).toBe(START + 1);
      expect((await fixture.store.listLiveRuns())[0]?.stopRequestedAt).toBe(START + 1);
      expect(await fixture.store.requestRunStop("nobody", START)).toBeNull();
      expect(await fixture.store.listStopRequests("A")).toEqual(["run-a"]);
      expect(await fixture.store.listStopRequests("B")).toEqual([]);
      await fixture.store.recordRunEnd("run-a", START + 3);
      expect(await fixture.store.listStopRequests("A")).toEqual([]);
      expect(await fixture.store.requestRunStop("run-a", START + 4)).toBeNull();
    });

    it("of two stop requests at once, tells one it was the first", async () => {
      await fixture.store.claimRun(claim("run-a", "A"));
      const answers = await Promise.all([
        fixture.store.requestRunStop("run-a", START + 1),
        fixture.store.requestRunStop("run-a", START + 1),
      ]);
      expect(answers.sort()).toEqual(["already", "requested"]);
    });

    it("lists the unfinished runs with their instance and records so far", async () => {
      await fixture.store.appendRecords("id-1", "earlier", [user("u0", "old")]);
      await fixture.store.claimRun(claim("run-a", "A"));
      await fixture.store.appendRunRecords([
        { transcriptId: "id-1", runId: "run-a", records: [user("u1", "hi"), chunk("x")] },
      ]);
      await fixture.store.createTranscript({ ...NEW, id: "t2" });
      await fixture.store.recordRunStart({
        runId: "legacy",
        transcriptId: "t2",
        startedAt: START + 1,
      });
      await fixture.store.claimRun({ ...claim("done", "B"), transcriptId: "t2", exclusive: false });
      await fixture.store.recordRunEnd("done", START + 2);
      expect(await fixture.store.listLiveRuns()).toEqual([
        {
          runId: "run-a",
          transcriptId: "id-1",
          startedAt: START,
          endedAt: null,
          stopRequestedAt: null,
          instanceId: "A",
          records: 2,
        },
        {
          runId: "legacy",
          transcriptId: "t2",
          startedAt: START + 1,
          endedAt: null,
          stopRequestedAt: null,
          instanceId: null,
          records: 0,
        },
      ]);
    });

    it("tells when a lease ends (optional): none before the first renewal, then the latest", async () => {
      const { store } = fixture;
      if (store.leaseUntil === undefined) return;
      expect(await store.leaseUntil("watch:run-a")).toBeNull();
      await store.renewLease("watch:run-a", START + 3000);
      await store.renewLease("watch:run-a", START + 4000);
      expect(await store.leaseUntil("watch:run-a")).toBe(START + 4000);
    });

    it("forgets leases that ended before a time (optional); a forgotten instance's runs stay orphaned", async () => {
      const { store } = fixture;
      if (store.forgetEndedLeases === undefined || store.leaseUntil === undefined) return;
      await store.renewLease("A", START + 100);
      await store.renewLease("watch:run-a", START + 150);
      await store.renewLease("B", START + 1000);
      await store.claimRun(claim("run-a", "A"));
      expect(await store.forgetEndedLeases(START + 150)).toBe(1);
      expect(await store.leaseUntil("A")).toBeNull();
      expect(await store.leaseUntil("watch:run-a")).toBe(START + 150);
      expect(await store.leaseUntil("B")).toBe(START + 1000);
      expect((await store.listOrphanedRuns(START + 200)).map((run) => run.runId)).toEqual([
        "run-a",
      ]);
      expect(await store.forgetEndedLeases(START + 151)).toBe(1);
      expect(await store.leaseUntil("watch:run-a")).toBeNull();
    });

    it("a store that notifies appends (optional) names the transcript appended to", async () => {
      if (fixture.store.watchAppends === undefined) return;
      const seen: string[] = [];
      const unsubscribe = fixture.store.watchAppends((transcriptId) => seen.push(transcriptId));
      // The subscription may take a moment to be up: append until one is reported.
      for (let tries = 0; !seen.includes("id-1"); tries++) {
        if (tries > 400) throw new Error("No append was reported.");
        await fixture.store.appendRecords("id-1", "run", [chunk(String(tries))]);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      unsubscribe();
      expect(seen.every((transcriptId) => transcriptId === "id-1")).toBe(true);
    });

    it("gives up the imports of instances whose lease ended, never a deleted transcript", async () => {
      const { store } = fixture;
      const importOf = (id: string, instance: string) =>
        store.createTranscript({ ...NEW, id, source: "import", importInstance: instance });
      await store.renewLease("A", START + 100);
      await store.renewLease("B", START + 1000);
      await importOf("a-writing", "A");
      await store.appendRecords("a-writing", "imported", [user("u1", "half of a file")]);
      await importOf("b-writing", "B");
      // No lease ever written: its instance died before (or never was one).
      await importOf("nobody", "C");
      // Finished (shown), then deleted by the user: theirs to restore, whatever its writer.
      await importOf("finished", "A");
      expect(await store.restoreTranscript("finished")).toBe(true);
      expect(await store.deleteTranscript("finished")).toBe(true);
      // id-1 (not an import) deleted by the user.
      await store.deleteTranscript("id-1");
      // Hidden from the start.
      expect(await store.getTranscript("a-writing")).toBeNull();
      expect(await store.listTranscripts()).toEqual([]);

      expect(await store.claimAbandonedImports(START + 99)).toEqual(["nobody"]);
      // Never the asking instance's own, whatever its lease says (it stalled, not renewed yet).
      expect(await store.claimAbandonedImports(START + 100, "A")).toEqual(["nobody"]);
      // A lease is live strictly before its end. Given up once, it is given again until purged
      // (a purge cut off by a crash is finished by the next sweep), and cannot be shown.
      expect(await store.claimAbandonedImports(START + 100)).toEqual(["a-writing", "nobody"]);
      expect(await store.claimAbandonedImports(START + 100)).toEqual(["a-writing", "nobody"]);
      expect(await store.restoreTranscript("a-writing")).toBe(false);
      expect(await store.purgeTranscript("a-writing")).toBe(true);
      expect(await store.purgeTranscript("nobody")).toBe(true);
      expect(await store.claimAbandonedImports(START + 999)).toEqual([]);
      expect(await store.restoreTranscript("finished")).toBe(true);
      expect(await store.restoreTranscript("id-1")).toBe(true);
      // B renews its lease and finishes: shown, and no longer its to give up.
      await store.renewLease("B", START + 3000);
      expect(await store.claimAbandonedImports(START + 2000)).toEqual([]);
      expect(await store.restoreTranscript("b-writing")).toBe(true);
      expect(await store.claimAbandonedImports(START + 5000)).toEqual([]);
      expect((await store.listTranscripts()).map((summary) => summary.id).sort()).toEqual([
        "b-writing",
        "finished",
        "id-1",
      ]);
    });
  });
}
