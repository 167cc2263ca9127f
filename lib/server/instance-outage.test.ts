/**
 * A store outage longer than the lease (docs/live-runs.md#a-server-that-dies-mid-run): no
 * instance could renew its lease meanwhile, so an ended lease then says nothing of who is dead.
 * An instance never marks its own runs, and judges others' leases only once a full lease has
 * passed with the store reachable. Each instance here is a registry on its own view of one
 * memory store, which fails while `outage.down` is set.
 */
import { describe, expect, it } from "vitest";
import { createMemoryStore, type Store } from "../store";
import { startInstance } from "./instance";
import { RunRegistry } from "./run-registry";

const LIMITS = { bufferBytes: 64 * 1024, maxLagBytes: 4 * 1024 * 1024 };
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `store` as one instance reaches it: every call fails while `fails(method)` says so. */
function reachable(store: Store, fails: (method: string) => boolean): Store {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (fails(String(property))) return Promise.reject(new Error("connection refused"));
        return value.apply(target, args);
      };
    },
  });
}

async function runOn(registry: RunRegistry, store: Store) {
  const meta = await store.createTranscript({
    dialect: "xml",
    model: { provider: "demo", id: "x" },
  });
  return registry.open({ store, transcriptId: meta.id, controller: new AbortController() });
}

describe("a store outage longer than the lease", () => {
  it("never makes an instance mark its own run crashed", async () => {
    const store = createMemoryStore();
    const registry = new RunRegistry(LIMITS, "instance-a");
    // Only the renewals fail: the sweep reads the store and sees this instance's lease ended.
    const outage = { down: false };
    const view = reachable(store, (method) => outage.down && method === "renewLease");
    const instance = startInstance(view, registry, { leaseMs: 60, pollMs: 5 });
    try {
      await instance.ready;
      const run = await runOn(registry, store);
      outage.down = true;
      await pause(400);
      outage.down = false;
      await pause(200);
      expect((await store.getRunInfo(run.runId))?.endedAt).toBeNull();
      expect(await store.listInstanceRuns("instance-a")).toEqual([run.runId]);
      expect(run.storageFailure).toBeNull();
      await registry.finish(run, store);
    } finally {
      instance.stop();
    }
  });

  /**
   * Instances A and B on one store, through an outage of 2.5 leases; back for both, A's first
   * renewal succeeding a third of a lease later than B's. `during` sets up what A has going.
   */
  async function outageWithALate(during: (store: Store, registryA: RunRegistry) => Promise<void>) {
    const store = createMemoryStore();
    const registryA = new RunRegistry(LIMITS, "instance-a");
    const registryB = new RunRegistry(LIMITS, "instance-b");
    const outage = { down: false, aRenewsFrom: 0 };
    const viewA = reachable(
      store,
      (method) => outage.down || (method === "renewLease" && Date.now() < outage.aRenewsFrom),
    );
    const viewB = reachable(store, () => outage.down);
    const leaseMs = 300;
    const a = startInstance(viewA, registryA, { leaseMs, pollMs: 5 });
    const b = startInstance(viewB, registryB, { leaseMs, pollMs: 5 });
    try {
      await Promise.all([a.ready, b.ready]);
      await during(store, registryA);
      outage.down = true;
      await pause(2.5 * leaseMs);
      outage.aRenewsFrom = Date.now() + leaseMs / 3;
      outage.down = false;
      await pause(2 * leaseMs);
    } finally {
      a.stop();
      b.stop();
    }
    return { store, registryA };
  }

  it("B does not mark A's run crashed when A renews within a lease of the store's return", async () => {
    let run: Awaited<ReturnType<typeof runOn>> | undefined;
    const { store, registryA } = await outageWithALate(async (store, registryA) => {
      run = await runOn(registryA, store);
    });
    if (run === undefined) throw new Error("No run was started.");
    expect((await store.getRunInfo(run.runId))?.endedAt).toBeNull();
    expect(await store.listInstanceRuns("instance-a")).toEqual([run.runId]);
    await registryA.finish(run, store);
  });

  it("B does not purge A's import in progress when A renews within a lease of the store's return", async () => {
    let importId = "";
    const { store } = await outageWithALate(async (store) => {
      // A is importing a file: hidden until its last line is in, its writer noted.
      const meta = await store.createTranscript({
        dialect: "xml",
        model: { provider: "demo", id: "x" },
        importInstance: "instance-a",
      });
      importId = meta.id;
    });
    // A's import ends: it is still there to show.
    expect(await store.restoreTranscript(importId)).toBe(true);
  });

  it("still marks a dead instance's run crashed once a lease has passed with the store back", async () => {
    const store = createMemoryStore();
    const registryA = new RunRegistry(LIMITS, "instance-a");
    const registryB = new RunRegistry(LIMITS, "instance-b");
    const outage = { down: false };
    const viewB = reachable(store, () => outage.down);
    const leaseMs = 150;
    await store.renewLease("instance-a", Date.now() + leaseMs);
    const run = await runOn(registryA, store); // A never renews again: it died
    const b = startInstance(viewB, registryB, { leaseMs, pollMs: 5 });
    try {
      await b.ready;
      outage.down = true;
      await pause(leaseMs);
      outage.down = false;
      while ((await store.getRunInfo(run.runId))?.endedAt === null) await pause(10);
      const records = await store.listRunRecords(run.transcriptId, run.runId, 0);
      expect(records.at(-1)).toMatchObject({ event: { type: "interrupt", reason: "crash" } });
    } finally {
      b.stop();
    }
  });
});
