/**
 * The shared suite's relics part (run from `store.test.ts` against each implementation): the
 * key-value store of `relic` actions, with namespaces and expiry on an injected clock.
 */
import { describe, expect, it } from "vitest";
import { type OpenStore, storeFixture } from "./store-conformance";

export function describeRelicConformance(name: string, open: OpenStore): void {
  describe(`Store conformance, relics: ${name}`, () => {
    const fixture = storeFixture(open);

    describe("relics", () => {
      it("sets, gets, overwrites and keeps namespaces apart", async () => {
        expect(await fixture.store.relicGet("ns", "k")).toBeUndefined();
        await fixture.store.relicSet("ns", "k", { list: [1, "два", null], flag: true });
        await fixture.store.relicSet("other", "k", null);
        expect(await fixture.store.relicGet("ns", "k")).toEqual({
          list: [1, "два", null],
          flag: true,
        });
        expect(await fixture.store.relicGet("other", "k")).toBeNull();
        await fixture.store.relicSet("ns", "k", "🌍");
        expect(await fixture.store.relicGet("ns", "k")).toBe("🌍");
      });

      it("expires at the ttl by the injected clock; a later set without ttl keeps", async () => {
        await fixture.store.relicSet("ns", "k", 1, 60);
        fixture.tick(59_999);
        expect(await fixture.store.relicGet("ns", "k")).toBe(1);
        fixture.tick(1);
        expect(await fixture.store.relicGet("ns", "k")).toBeUndefined();
        await fixture.store.relicSet("ns", "k", 2, 1);
        await fixture.store.relicSet("ns", "k", 3);
        fixture.tick(10_000_000);
        expect(await fixture.store.relicGet("ns", "k")).toBe(3);
      });

      it("deletes, reporting whether a live value was there", async () => {
        await fixture.store.relicSet("ns", "k", "v");
        await fixture.store.relicSet("ns", "short", "v", 1);
        expect(await fixture.store.relicDelete("ns", "k")).toBe(true);
        expect(await fixture.store.relicDelete("ns", "k")).toBe(false);
        expect(await fixture.store.relicGet("ns", "k")).toBeUndefined();
        fixture.tick(1000);
        expect(await fixture.store.relicDelete("ns", "short")).toBe(false);
      });

      it("rejects values that are not JSON and ttls that are not positive", async () => {
        await expect(fixture.store.relicSet("ns", "k", undefined)).rejects.toMatchObject({
          code: "invalid",
        });
        await expect(fixture.store.relicSet("ns", "k", 1n)).rejects.toMatchObject({
          code: "invalid",
        });
        await expect(fixture.store.relicSet("ns", "k", 1, 0)).rejects.toMatchObject({
          code: "invalid",
        });
        expect(await fixture.store.relicGet("ns", "k")).toBeUndefined();
      });
    });

    it("rejects every call after close", async () => {
      await fixture.store.close();
      await expect(fixture.store.getTranscript("x")).rejects.toMatchObject({ code: "closed" });
      await expect(fixture.store.relicGet("ns", "k")).rejects.toMatchObject({ code: "closed" });
      await fixture.store.close();
    });
  });
}
