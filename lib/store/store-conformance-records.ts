/**
 * The shared suite's second half (run from `store.test.ts` against each implementation):
 * requests with their messages stored once, pages of records and the conversation
 * projection. Every store must give back exactly what it was given.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { RequestRecord, Store, StoredRecord, TranscriptRecord } from "./store";
import { chunk, NEW, type OpenStore, respond, storeFixture, user } from "./store-conformance";

export function request(turn: number, messages: unknown[]): RequestRecord {
  return {
    kind: "request",
    turn,
    t: 0.25,
    provider: "demo",
    model: "demo-1",
    messages,
    settings: { temperature: 0 },
  };
}

/** A growing conversation: each request repeats the one before and adds two messages. */
export function growingRequests(count: number): RequestRecord[] {
  const messages: unknown[] = [{ role: "system", content: "You are terse." }];
  return Array.from({ length: count }, (_, turn) => {
    messages.push({ role: "user", content: `question ${turn} ✓` });
    const sent = request(turn, [...messages]);
    messages.push({ role: "assistant", content: [{ type: "text", text: `answer ${turn}` }] });
    return sent;
  });
}

const withoutPosition = ({ seq: _seq, runId: _runId, ...record }: StoredRecord) => record;

export function describeRecordConformance(name: string, open: OpenStore): void {
  describe(`Store conformance: ${name}: requests, pages, conversation`, () => {
    const fixture = storeFixture(open);

    beforeEach(async () => {
      await fixture.store.createTranscript(NEW);
    });

    it("gives back requests that share, grow, shrink and branch, byte for byte", async () => {
      const grown = growingRequests(6);
      const records: TranscriptRecord[] = [
        ...grown.slice(0, 3),
        // A sub-agent's own context, interleaved with the parent's.
        request(3, [
          { role: "system", content: "sub" },
          { role: "user", content: "task" },
        ]),
        ...grown.slice(3),
        // A compacted context: a prefix of an earlier one, then something new.
        request(7, [...(grown[2]?.messages ?? []), { role: "user", content: "after compaction" }]),
        request(8, []),
        // Repeated messages, key order and JSON semantics (undefined → null in an array).
        request(9, [{ b: 1, a: 2 }, { b: 1, a: 2 }, undefined, "plain", 42, null]),
        chunk("<respond>", 9),
      ];
      // Stored in several calls, and read back through a fresh read.
      await fixture.store.appendRecords("id-1", "run-1", records.slice(0, 4));
      await fixture.store.appendRecords("id-1", "run-1", records.slice(4));
      const read = await fixture.store.getTranscript("id-1");
      const expected = JSON.parse(JSON.stringify(records)) as unknown[];
      expect(read?.records.map(withoutPosition)).toEqual(expected);
      expect(read?.records.map((record) => JSON.stringify(withoutPosition(record)))).toEqual(
        records.map((record) => JSON.stringify(record)),
      );
      // Requests read together share each message's value (exports rely on it).
      const [first, second] = (read?.records ?? []) as RequestRecord[];
      expect(second?.messages[1]).toBe(first?.messages[1]);
    });

    it("keeps a request's messages apart per transcript", async () => {
      await fixture.store.createTranscript(NEW);
      const [first] = growingRequests(1) as [RequestRecord];
      const other = request(0, [...first.messages.slice(0, 1), { role: "user", content: "other" }]);
      await fixture.store.appendRecords("id-1", "run-1", [first]);
      await fixture.store.appendRecords("id-2", "run-2", [other]);
      expect((await fixture.store.getTranscript("id-1"))?.records[0]).toMatchObject(first);
      expect((await fixture.store.getTranscript("id-2"))?.records[0]).toMatchObject(other);
    });

    it("pages records forward, from the end, and within a range", async () => {
      const records = [user("u1", "hi"), ...growingRequests(3), chunk("a"), respond("r", "b")];
      await fixture.store.appendRecords("id-1", "run-1", records);
      const seqs = (page: { records: StoredRecord[] } | null) =>
        page?.records.map((record) => record.seq);
      expect(seqs(await fixture.store.readRecords("id-1", { limit: 2 }))).toEqual([1, 2]);
      expect(seqs(await fixture.store.readRecords("id-1", { after: 2, limit: 2 }))).toEqual([3, 4]);
      expect(seqs(await fixture.store.readRecords("id-1", { limit: 2, from: "end" }))).toEqual([
        5, 6,
      ]);
      expect(
        seqs(await fixture.store.readRecords("id-1", { before: 5, limit: 2, from: "end" })),
      ).toEqual([3, 4]);
      expect(
        seqs(await fixture.store.readRecords("id-1", { after: 1, before: 4, limit: 9 })),
      ).toEqual([2, 3]);
      const page = await fixture.store.readRecords("id-1", {
        after: 2,
        before: 4,
        limit: 1,
        from: "end",
      });
      expect(page?.recordCount).toBe(6);
      expect(page?.meta.id).toBe("id-1");
      // A request alone on its page still has every message.
      expect(page?.records[0]).toEqual({ ...records[2], seq: 3, runId: "run-1" });
      expect(await fixture.store.readRecords("missing", { limit: 1 })).toBeNull();
      await expect(fixture.store.readRecords("id-1", { limit: 0 })).rejects.toMatchObject({
        code: "invalid",
      });
      await expect(
        fixture.store.readRecords("id-1", { after: -1, limit: 1 }),
      ).rejects.toMatchObject({
        code: "invalid",
      });
    });

    it("walks records a page at a time, up to where the walk started", async () => {
      const grown = growingRequests(20);
      const records: TranscriptRecord[] = [
        user("u1", "hi"),
        ...grown,
        chunk("a"),
        respond("r", "b"),
      ];
      await fixture.store.appendRecords("id-1", "run-1", records);
      const walk = async (options?: Parameters<Store["readRecordPages"]>[1]) => {
        const pages: number[][] = [];
        for await (const page of fixture.store.readRecordPages("id-1", options))
          pages.push(page.map((record) => record.seq));
        return pages;
      };
      expect(await walk({ pageSize: 10 })).toEqual([
        [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
        [21, 22, 23],
      ]);
      expect(await walk({ after: 20, pageSize: 2 })).toEqual([[21, 22], [23]]);
      expect(await walk({ after: 3, through: 7, pageSize: 2 })).toEqual([
        [4, 5],
        [6, 7],
      ]);
      expect(await walk({ through: 0 })).toEqual([]);
      expect((await walk()).flat()).toHaveLength(23);

      // Every record as a whole read gives it, and requests keep sharing message values
      // across page boundaries, one request a page.
      const paged: StoredRecord[] = [];
      for await (const page of fixture.store.readRecordPages("id-1", { pageSize: 1 }))
        paged.push(...page);
      expect(paged).toEqual((await fixture.store.getTranscript("id-1"))?.records);
      const requests = paged.filter(
        (record): record is StoredRecord & RequestRecord => record.kind === "request",
      );
      for (let index = 1; index < requests.length; index++)
        expect(requests[index]?.messages[0]).toBe(requests[index - 1]?.messages[0]);

      // Appends after the walk started are not part of it.
      const seen: number[] = [];
      for await (const page of fixture.store.readRecordPages("id-1", { after: 20, pageSize: 1 })) {
        seen.push(...page.map((record) => record.seq));
        if (seen.length === 1) await fixture.store.appendRecords("id-1", "run-2", [chunk("late")]);
      }
      expect(seen).toEqual([21, 22, 23]);
    });

    it("refuses a walk of an unknown or deleted transcript, also midway", async () => {
      await fixture.store.appendRecords("id-1", "run-1", [user("u1", "a"), user("u2", "b")]);
      const walk = async (id: string) => {
        for await (const _page of fixture.store.readRecordPages(id, { pageSize: 1 }))
          await fixture.store.deleteTranscript(id);
      };
      await expect(walk("missing")).rejects.toMatchObject({ code: "not_found" });
      await expect(walk("id-1")).rejects.toMatchObject({ code: "not_found" });
      await expect(walk("id-1")).rejects.toMatchObject({ code: "not_found" });
      await fixture.store.restoreTranscript("id-1");
      const pages = fixture.store.readRecordPages("id-1", { pageSize: 0 })[Symbol.asyncIterator]();
      await expect(pages.next()).rejects.toMatchObject({ code: "invalid" });
    });

    it("frees on purge what only the transcript referenced: its runs and message tree", async () => {
      const { store } = fixture;
      const grown = growingRequests(3);
      await store.recordRunStart({ runId: "run-1", transcriptId: "id-1", startedAt: 1 });
      await store.appendRecords("id-1", "run-1", grown);
      await store.createTranscript(NEW);
      await store.appendRecords("id-2", "run-2", grown.slice(0, 2));
      await store.deleteTranscript("id-1");
      expect(await store.purgeTranscript("id-1")).toBe(true);
      // Its runs go with it (the databases' cascade), unfinished or not.
      expect(await store.getRunInfo("run-1")).toBeNull();
      expect((await store.listUnfinishedRuns()).map((run) => run.runId)).toEqual([]);
      // Made again under its id, it starts from no message of the old tree; the other
      // transcript's requests, which repeat the same messages, are untouched.
      await store.createTranscript({ ...NEW, id: "id-1" });
      const again = [request(0, [{ role: "user", content: "new" }]), ...grown.slice(1)];
      await store.appendRecords("id-1", "run-3", again);
      expect((await store.getTranscript("id-1"))?.records.map(withoutPosition)).toEqual(again);
      expect((await store.getTranscript("id-2"))?.records.map(withoutPosition)).toEqual(
        grown.slice(0, 2),
      );
    });

    it("projects a conversation: its events and the record of its highest turn", async () => {
      expect((await fixture.store.getConversation("id-1"))?.records).toEqual([]);
      const [first, second] = growingRequests(2) as [RequestRecord, RequestRecord];
      const records: TranscriptRecord[] = [
        user("u1", "hi"),
        first,
        chunk("a", 0),
        respond("r1", "a", 0),
        second,
        chunk("b", 1),
        chunk("c", 1),
        respond("r2", "bc", 1),
      ];
      await fixture.store.appendRecords("id-1", "run-1", records);
      const conversation = await fixture.store.getConversation("id-1");
      expect(conversation?.meta.id).toBe("id-1");
      expect(conversation?.records.map((record) => record.seq)).toEqual([1, 4, 7, 8]);
      // Later appends: a lower turn leaves the highest turn's record, an equal one replaces it.
      await fixture.store.appendRecords("id-1", "run-2", [chunk("d", 0)]);
      await fixture.store.appendRecords("id-1", "run-2", [chunk("e", 1), chunk("f", 0)]);
      const later = await fixture.store.getConversation("id-1");
      expect(later?.records.map((record) => record.seq)).toEqual([1, 4, 8, 10]);
      expect(await fixture.store.getConversation("missing")).toBeNull();
      await fixture.store.deleteTranscript("id-1");
      expect(await fixture.store.getConversation("id-1")).toBeNull();
      expect(await fixture.store.readRecords("id-1", { limit: 1 })).toBeNull();
    });
  });
}
