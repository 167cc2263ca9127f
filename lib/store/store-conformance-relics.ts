/**
 * The shared suite's relics part (run from `store.test.ts` against each implementation): the
 * key-value store of `relic` actions, with namespaces and expiry on an injected clock.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Store } from "./store";
import { type OpenStore, START } from "./store-conformance";

export function describeRelicConformance(name: string, open: OpenStore): void {
  describe(`Store conformance, relics: ${name}`, () => {
    let time = START;
    let ids = 0;
    let store: Store;
    const tick = (ms = 1000) => {
      time += ms;
    };

    beforeEach(async () => {
      time = START;
      ids = 0;
      store = await open({ now: () => time, newId: () => `id-${++ids}` });
    });

    afterEach(async () => {
      await store.close();
    });

    describe("relics", () => {
      it("sets, gets, overwrites and keeps namespaces apart", async () => {
        expect(await store.relicGet("ns", "k")).toBeUndefined();
        await store.relicSet("ns", "k", { list: [1, "два", null], flag: true });
        await store.relicSet("other", "k", null);
        expect(await store.relicGet("ns", "k")).toEqual({ list: [1, "два", null], flag: true });
        expect(await store.relicGet("other", "k")).toBeNull();
        await store.relicSet("ns", "k", "🌍");
        expect(await store.relicGet("ns", "k")).toBe("🌍");
      });

      it("expires at the ttl by the injected clock; a later set without ttl keeps", async () => {
        await store.relicSet("ns", "k", 1, 60);
        tick(59_999);
        expect(await store.relicGet("ns", "k")).toBe(1);
        tick(1);
        expect(await store.relicGet("ns", "k")).toBeUndefined();
        await store.relicSet("ns", "k", 2, 1);
        await store.relicSet("ns", "k", 3);
        tick(10_000_000);
        expect(await store.relicGet("ns", "k")).toBe(3);
      });

      it("deletes, reporting whether a live value was there", async () => {
        await store.relicSet("ns", "k", "v");
        await store.relicSet("ns", "short", "v", 1);
        expect(await store.relicDelete("ns", "k")).toBe(true);
        expect(await store.relicDelete("ns", "k")).toBe(false);
        expect(await store.relicGet("ns", "k")).toBeUndefined();
        tick(1000);
        expect(await store.relicDelete("ns", "short")).toBe(false);
      });

      it("rejects values that are not JSON and ttls that are not positive", async () => {
        await expect(store.relicSet("ns", "k", undefined)).rejects.toMatchObject({
          code: "invalid",
        });
        await expect(store.relicSet("ns", "k", 1n)).rejects.toMatchObject({ code: "invalid" });
        await expect(store.relicSet("ns", "k", 1, 0)).rejects.toMatchObject({ code: "invalid" });
        expect(await store.relicGet("ns", "k")).toBeUndefined();
      });
    });

    it("rejects every call after close", async () => {
      await store.close();
      await expect(store.getTranscript("x")).rejects.toMatchObject({ code: "closed" });
      await expect(store.relicGet("ns", "k")).rejects.toMatchObject({ code: "closed" });
      await store.close();
    });
  });
}
