/**
 * The one behaviour suite every `Store` must pass (run from `store.test.ts` against each
 * implementation). Time and ids are injected, so every expectation is exact.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProtocolEvent } from "../protocol";
import type { CreateTranscriptInput, Store, StoreOptions, TranscriptRecord } from "./store";

export type OpenStore = (options: Required<StoreOptions>) => Store | Promise<Store>;

export const START = Date.UTC(2025, 0, 1);

export const NEW: CreateTranscriptInput = {
  dialect: "xml",
  model: { provider: "demo", id: "demo-1" },
};

export function user(id: string, content: string): TranscriptRecord {
  return { kind: "event", event: { type: "user", id, timestamp: START, content } };
}

export function respond(id: string, content: string, turn = 0): TranscriptRecord {
  const event: ProtocolEvent = {
    type: "respond",
    id,
    timestamp: START,
    turn,
    span: { start: 0, end: content.length },
    content,
  };
  return { kind: "event", event };
}

export function chunk(text: string, turn = 0, t = 1.5): TranscriptRecord {
  return { kind: "chunk", turn, t, text };
}

/** One test's store (`store`), on a clock at `START` that moves only by `tick`. */
export interface StoreFixture {
  store: Store;
  tick(ms?: number): void;
}

/**
 * Opens a fresh store before each test of the suite it is called in (ids `id-1`, `id-2`…)
 * and closes it after.
 */
export function storeFixture(open: OpenStore): StoreFixture {
  let time = START;
  let ids = 0;
  let store: Store | undefined;
  beforeEach(async () => {
    time = START;
    ids = 0;
    store = await open({ now: () => time, newId: () => `id-${++ids}` });
  });
  afterEach(async () => {
    await store?.close();
  });
  return {
    get store() {
      if (store === undefined) throw new Error("the store is opened before each test");
      return store;
    },
    tick(ms = 1000) {
      time += ms;
    },
  };
}

export function describeStoreConformance(name: string, open: OpenStore): void {
  describe(`Store conformance: ${name}`, () => {
    const fixture = storeFixture(open);

    describe("transcripts", () => {
      it("creates with defaults and reads back an empty transcript", async () => {
        const meta = await fixture.store.createTranscript(NEW);
        expect(meta).toEqual({
          id: "id-1",
          title: "Untitled",
          createdAt: START,
          updatedAt: START,
          dialect: "xml",
          model: { provider: "demo", id: "demo-1" },
          system: "",
          tools: [],
          source: "playground",
        });
        expect(await fixture.store.getTranscript("id-1")).toEqual({ meta, records: [] });
      });

      it("keeps where a transcript came from, and lists by source", async () => {
        await fixture.store.createTranscript({ ...NEW, id: "p" });
        fixture.tick();
        const captured = await fixture.store.createTranscript({
          ...NEW,
          id: "c",
          source: "capture",
        });
        fixture.tick();
        await fixture.store.createTranscript({ ...NEW, id: "i", source: "import" });
        expect(captured.source).toBe("capture");
        expect((await fixture.store.getTranscript("c"))?.meta.source).toBe("capture");
        const ids = async (source?: "playground" | "import" | "capture") =>
          (await fixture.store.listTranscripts(source === undefined ? {} : { source })).map(
            (summary) => [summary.id, summary.source],
          );
        expect(await ids()).toEqual([
          ["i", "import"],
          ["c", "capture"],
          ["p", "playground"],
        ]);
        expect(await ids("capture")).toEqual([["c", "capture"]]);
        expect(await ids("playground")).toEqual([["p", "playground"]]);
        await expect(
          fixture.store.listTranscripts({ source: "elsewhere" as "capture" }),
        ).rejects.toMatchObject({ code: "invalid" });
        await expect(
          fixture.store.createTranscript({ ...NEW, source: "elsewhere" as "capture" }),
        ).rejects.toMatchObject({ code: "invalid" });
      });

      it("keeps every field given, including the fork origin", async () => {
        const parent = await fixture.store.createTranscript({ ...NEW, title: "Parent" });
        const input: CreateTranscriptInput = {
          id: "child",
          title: "  Child  ",
          dialect: "action",
          model: { provider: "openai", id: "gpt" },
          system: "Be brief.",
          tools: ["read_file", "list_dir"],
          parentId: parent.id,
          forkPoint: 3,
        };
        const child = await fixture.store.createTranscript(input);
        expect(child).toMatchObject({ ...input, title: "Child" });
        expect((await fixture.store.getTranscript("child"))?.meta).toEqual(child);
      });

      it("rejects a duplicate id, an unknown parent and an empty title", async () => {
        await fixture.store.createTranscript({ ...NEW, id: "a" });
        await expect(fixture.store.createTranscript({ ...NEW, id: "a" })).rejects.toMatchObject({
          code: "conflict",
        });
        await expect(
          fixture.store.createTranscript({ ...NEW, parentId: "nope" }),
        ).rejects.toMatchObject({
          code: "invalid",
        });
        await expect(fixture.store.createTranscript({ ...NEW, title: " " })).rejects.toMatchObject({
          code: "invalid",
        });
        expect((await fixture.store.listTranscripts()).map((summary) => summary.id)).toEqual(["a"]);
      });

      it("returns null for an unknown id", async () => {
        expect(await fixture.store.getTranscript("missing")).toBeNull();
      });

      it("renames, bumping updatedAt; unknown ids give null", async () => {
        await fixture.store.createTranscript(NEW);
        fixture.tick();
        const renamed = await fixture.store.renameTranscript("id-1", "Listing files");
        expect(renamed).toMatchObject({ title: "Listing files", updatedAt: START + 1000 });
        expect((await fixture.store.getTranscript("id-1"))?.meta).toEqual(renamed);
        expect(await fixture.store.renameTranscript("missing", "x")).toBeNull();
        await expect(fixture.store.renameTranscript("id-1", "")).rejects.toMatchObject({
          code: "invalid",
        });
      });

      it("soft-deletes and restores, records included", async () => {
        await fixture.store.createTranscript(NEW);
        await fixture.store.appendRecords("id-1", "run-1", [user("u1", "hello")]);
        expect(await fixture.store.deleteTranscript("id-1")).toBe(true);
        expect(await fixture.store.deleteTranscript("id-1")).toBe(false);
        expect(await fixture.store.getTranscript("id-1")).toBeNull();
        expect(await fixture.store.listTranscripts()).toEqual([]);
        expect(await fixture.store.renameTranscript("id-1", "x")).toBeNull();
        // A run still streaming into it keeps appending; undo must bring all of it back.
        await fixture.store.appendRecords("id-1", "run-1", [respond("r1", "hi")]);
        expect(await fixture.store.restoreTranscript("id-1")).toBe(true);
        expect(await fixture.store.restoreTranscript("id-1")).toBe(false);
        expect(await fixture.store.restoreTranscript("missing")).toBe(false);
        expect(
          (await fixture.store.getTranscript("id-1"))?.records.map((record) => record.seq),
        ).toEqual([1, 2]);
      });
    });

    describe("purge", () => {
      it("removes a deleted transcript for good, records, search text and messages included; never a live one", async () => {
        const { store } = fixture;
        await store.createTranscript(NEW);
        const request: TranscriptRecord = {
          kind: "request",
          turn: 0,
          t: 0.5,
          provider: "demo",
          model: "demo-1",
          messages: [{ role: "user", content: "find the purged words" }],
          settings: {},
        };
        // More than one slice of a purge (5,000 records).
        const chunks = Array.from({ length: 12_000 }, (_, index) => chunk(`c${index} `));
        await store.appendRecords("id-1", "run-1", [user("u1", "find the purged words"), request]);
        await store.appendRecords("id-1", "run-1", chunks);
        expect(await store.purgeTranscript("id-1")).toBe(false);
        expect((await store.getTranscript("id-1"))?.records).toHaveLength(12_002);
        await store.deleteTranscript("id-1");
        // A restore racing the purge wins whole or not at all: never half of it back.
        const [purged, restored] = await Promise.all([
          store.purgeTranscript("id-1"),
          store.restoreTranscript("id-1"),
        ]);
        expect(purged).not.toBe(restored);
        if (restored) {
          expect((await store.getTranscript("id-1"))?.records).toHaveLength(12_002);
          await store.deleteTranscript("id-1");
          expect(await store.purgeTranscript("id-1")).toBe(true);
        }
        expect(await store.purgeTranscript("id-1")).toBe(false);
        expect(await store.restoreTranscript("id-1")).toBe(false);
        expect(await store.purgeTranscript("missing")).toBe(false);
        // The id is free again, and a transcript made under it starts with nothing of the old.
        await store.createTranscript({ ...NEW, id: "id-1" });
        expect((await store.getTranscript("id-1"))?.records).toEqual([]);
        expect(await store.listTranscripts({ query: "purged" })).toEqual([]);
      });
    });

    describe("records", () => {
      it("numbers records from 1 in append order across calls, per transcript", async () => {
        await fixture.store.createTranscript(NEW);
        const request: TranscriptRecord = {
          kind: "request",
          turn: 0,
          t: 0.4,
          provider: "demo",
          model: "demo-1",
          messages: [{ role: "system", content: "x" }],
          settings: { temperature: 0 },
        };
        fixture.tick();
        const first = await fixture.store.appendRecords("id-1", "run-1", [
          user("u1", "list"),
          request,
        ]);
        const second = await fixture.store.appendRecords("id-1", "run-1", [
          chunk("<th"),
          chunk("ink>"),
        ]);
        expect([...first, ...second].map((record) => [record.seq, record.runId])).toEqual([
          [1, "run-1"],
          [2, "run-1"],
          [3, "run-1"],
          [4, "run-1"],
        ]);
        const transcript = await fixture.store.getTranscript("id-1");
        expect(transcript?.records).toEqual([...first, ...second]);
        expect(transcript?.records[1]).toEqual({ ...request, seq: 2, runId: "run-1" });
        expect(transcript?.meta.updatedAt).toBe(START + 1000);
        expect(await fixture.store.appendRecords("id-1", "run-1", [])).toEqual([]);
      });

      it("rejects appends to an unknown transcript", async () => {
        await expect(
          fixture.store.appendRecords("missing", "run", [chunk("x")]),
        ).rejects.toMatchObject({
          code: "not_found",
        });
        await expect(fixture.store.appendRecords("missing", "run", [])).rejects.toMatchObject({
          code: "not_found",
        });
      });

      it("keeps nothing of an append that contains a bad record", async () => {
        await fixture.store.createTranscript(NEW);
        const bad = { kind: "chunk", turn: 0, t: 1n, text: "x" } as unknown as TranscriptRecord;
        await expect(
          fixture.store.appendRecords("id-1", "r", [chunk("ok"), bad]),
        ).rejects.toMatchObject({
          code: "invalid",
        });
        expect((await fixture.store.getTranscript("id-1"))?.records).toEqual([]);
        expect((await fixture.store.appendRecords("id-1", "r", [chunk("ok")]))[0]?.seq).toBe(1);
      });

      it("keeps two interleaved runs on two transcripts separate and ordered", async () => {
        await fixture.store.createTranscript({ ...NEW, id: "a" });
        await fixture.store.createTranscript({ ...NEW, id: "b" });
        await Promise.all(
          Array.from({ length: 20 }, (_, index) =>
            index % 2 === 0
              ? fixture.store.appendRecords("a", "run-a", [chunk(`a${index}`), chunk(`a${index}'`)])
              : fixture.store.appendRecords("b", "run-b", [chunk(`b${index}`)]),
          ),
        );
        const a = (await fixture.store.getTranscript("a"))?.records ?? [];
        const b = (await fixture.store.getTranscript("b"))?.records ?? [];
        expect(a.map((record) => record.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
        expect(b.map((record) => record.seq)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
        expect(a.every((record) => record.runId === "run-a")).toBe(true);
        expect(b.every((record) => record.runId === "run-b")).toBe(true);
        expect(a.map((record) => (record.kind === "chunk" ? record.text : "")).slice(0, 4)).toEqual(
          ["a0", "a0'", "a2", "a2'"],
        );
        expect(b.map((record) => (record.kind === "chunk" ? record.text : "")).at(-1)).toBe("b19");
      });

      it("round-trips events with unicode exactly", async () => {
        await fixture.store.createTranscript(NEW);
        const text = 'héllo 🌍 𝒳 日本語 مرحبا \u2028 \u0000 \ud800 "q" \\ </think>';
        const records: TranscriptRecord[] = [
          user("u1", text),
          {
            kind: "event",
            event: {
              type: "call",
              id: "c1",
              timestamp: START,
              turn: 0,
              span: { start: 3, end: 40 },
              call: { id: "call-1", name: "write_file", args: { path: "ü/🌍.txt", body: text } },
              action: { type: "tool", mode: "async", dependsOn: ["x"], onError: "retry" },
            },
          },
          {
            kind: "event",
            event: {
              type: "result",
              id: "res1",
              timestamp: START,
              callId: "call-1",
              payload: {
                tool: "write_file",
                status: "failure",
                content: { nested: [1, null, true, text] },
                outcome: "Timed out after 30 s",
                durationMs: 30000,
              },
            },
          },
          chunk(text, 2, 12.5),
        ];
        await fixture.store.appendRecords("id-1", "run-🌍", records);
        const stored = (await fixture.store.getTranscript("id-1"))?.records;
        expect(stored).toEqual(
          records.map((record, index) => ({ ...record, seq: index + 1, runId: "run-🌍" })),
        );
      });
    });
  });
}
