/**
 * The store conformance suite's list and search part (run from `store.test.ts` against each
 * implementation, like `store-conformance.ts`).
 */
import { describe, expect, it } from "vitest";
import { matchSnippet } from "./search-text";
import {
  chunk,
  NEW,
  type OpenStore,
  respond,
  START,
  storeFixture,
  user,
} from "./store-conformance";

export function describeSearchConformance(name: string, open: OpenStore): void {
  describe(`Store conformance, list and search: ${name}`, () => {
    const fixture = storeFixture(open);

    describe("list and search", () => {
      it("lists most recently updated first, with limit and offset", async () => {
        for (const id of ["a", "b", "c"]) {
          await fixture.store.createTranscript({ ...NEW, id, title: id.toUpperCase() });
          fixture.tick();
        }
        await fixture.store.appendRecords("a", "run", [chunk("x"), chunk("y")]);
        const all = await fixture.store.listTranscripts();
        expect(all.map((summary) => summary.id)).toEqual(["a", "c", "b"]);
        expect(all[0]).toEqual({
          id: "a",
          title: "A",
          createdAt: START,
          updatedAt: START + 3000,
          dialect: "xml",
          model: NEW.model,
          source: "playground",
          recordCount: 2,
        });
        const page = await fixture.store.listTranscripts({ limit: 1, offset: 1 });
        expect(page.map((summary) => summary.id)).toEqual(["c"]);
        expect(await fixture.store.listTranscripts({ offset: 3 })).toEqual([]);
        await expect(fixture.store.listTranscripts({ limit: 0 })).rejects.toMatchObject({
          code: "invalid",
        });
      });

      it("says why a search matched: the match in context, unless the title matched", async () => {
        await fixture.store.createTranscript({ ...NEW, id: "long", title: "Expenses" });
        await fixture.store.createTranscript({ ...NEW, id: "short", title: "Notes" });
        await fixture.store.createTranscript({ ...NEW, id: "titled", title: "The average" });
        const long = `${"x".repeat(100)} the AVERAGE is\nwrong ${"y".repeat(100)}`;
        await fixture.store.appendRecords("long", "run", [respond("r1", long)]);
        await fixture.store.appendRecords("short", "run", [user("u1", "average?")]);
        await fixture.store.appendRecords("titled", "run", [user("u1", "the average")]);
        const found = await fixture.store.listTranscripts({ query: "Average" });
        const byId = new Map(found.map((summary) => [summary.id, summary.match]));
        expect(byId.get("long")).toEqual({
          before: `…${"x".repeat(35)} the `,
          text: "average",
          after: ` is wrong ${"y".repeat(30)}…`,
        });
        expect(byId.get("short")).toEqual({ before: "", text: "average", after: "?" });
        expect(byId.get("titled")).toBeUndefined();
        expect(
          (await fixture.store.listTranscripts()).every((summary) => summary.match === undefined),
        ).toBe(true);
      });

      it("searches title, user and respond text case-insensitively, nothing else", async () => {
        await fixture.store.createTranscript({ ...NEW, id: "title", title: "Über Files" });
        await fixture.store.createTranscript({ ...NEW, id: "user" });
        await fixture.store.createTranscript({ ...NEW, id: "respond" });
        await fixture.store.createTranscript({ ...NEW, id: "other" });
        await fixture.store.appendRecords("user", "run", [
          user("u1", "Please LIST the 50% files_"),
        ]);
        // One respond block streamed as pieces: a word split across them is still found.
        await fixture.store.appendRecords("respond", "run", [respond("r1", "Here are the fi")]);
        await fixture.store.appendRecords("respond", "run", [
          chunk("les"),
          respond("r1", "les I found"),
        ]);
        await fixture.store.appendRecords("other", "run", [
          chunk("files in a raw chunk"),
          {
            kind: "event",
            event: {
              type: "think",
              id: "t1",
              timestamp: 0,
              turn: 0,
              span: { start: 0, end: 5 },
              content: "files",
            },
          },
        ]);
        const search = async (query: string) =>
          (await fixture.store.listTranscripts({ query })).map((summary) => summary.id).sort();
        expect(await search("files")).toEqual(["respond", "title", "user"]);
        expect(await search("ÜBER")).toEqual(["title"]);
        expect(await search("  the files ")).toEqual(["respond"]);
        expect(await search("50% files_")).toEqual(["user"]);
        expect(await search("%")).toEqual(["user"]);
        expect(await search("nothing like this")).toEqual([]);
        expect(await search("   ")).toHaveLength(4);
        await fixture.store.renameTranscript("other", "Raw FILES");
        expect(await search("files")).toEqual(["other", "respond", "title", "user"]);
        await fixture.store.deleteTranscript("user");
        expect(await search("files")).toEqual(["other", "respond", "title"]);
      });

      it("finds text anywhere in a long block streamed as pieces, in context", async () => {
        // Past the 512 characters an SQL store keeps in one part, and across its cuts (a
        // character outside the BMP on one), whatever sizes the pieces come in.
        const whole = `${"a".repeat(505)} Needle😀 ${"b".repeat(500)}second😀marker ${"c".repeat(700)}`;
        const points = [...whole];
        await fixture.store.createTranscript({ ...NEW, id: "streamed" });
        await fixture.store.createTranscript({ ...NEW, id: "sent" });
        let at = 0;
        for (const size of [37, 511, 1, 2, 600, 3, 100]) {
          await fixture.store.appendRecords("streamed", "run", [
            respond("r1", points.slice(at, at + size).join("")),
          ]);
          at += size;
        }
        await fixture.store.appendRecords("streamed", "run", [
          respond("r1", points.slice(at).join("")),
        ]);
        await fixture.store.appendRecords("sent", "run", [user("u1", whole)]);
        const folded = whole.toLowerCase();
        // Across a cut (512 characters in), inside a part, and longer than a part: 700
        // characters over three of them.
        const long = points.slice(400, 1100).join("");
        // 64 characters (the longest a part's lead finds) and 65, each from 64 before a cut.
        const edge = (size: number) => points.slice(1024 - 64, 1024 - 64 + size).join("");
        for (const query of [
          "needle😀",
          "😀 bbb",
          "second😀marker",
          "ccc",
          long,
          edge(64),
          edge(65),
        ]) {
          const found = await fixture.store.listTranscripts({ query });
          expect(found.map((summary) => summary.id).sort()).toEqual(["sent", "streamed"]);
          for (const summary of found)
            expect(summary.match).toEqual(matchSnippet(folded, query.toLowerCase()));
        }
        expect(await fixture.store.listTranscripts({ query: "a😀" })).toEqual([]);
      });
    });
  });
}
