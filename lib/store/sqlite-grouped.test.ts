import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { groupedWrites } from "./sqlite-grouped";
import { openSqliteStore } from "./sqlite-store";
import { NEW } from "./store-conformance";

let directory: string;
let db: Database.Database;
let reader: Database.Database;
beforeEach(() => {
  directory = mkdtempSync(join(os.tmpdir(), "wirescope-grouped-"));
  db = new Database(join(directory, "test.db"));
  db.pragma("journal_mode = WAL");
  db.exec("CREATE TABLE items (name TEXT PRIMARY KEY) STRICT");
  reader = new Database(join(directory, "test.db"), { readonly: true });
});
afterEach(() => {
  reader.close();
  db.close();
  rmSync(directory, { recursive: true, force: true });
});

const insert = (name: string) => () =>
  db.prepare("INSERT INTO items (name) VALUES (?)").run(name).changes;
const committed = () =>
  reader
    .prepare<[], { name: string }>("SELECT name FROM items ORDER BY name")
    .all()
    .map((row) => row.name);

describe("groupedWrites", () => {
  it("commits the writes of one turn together, each settling on its own", async () => {
    const grouped = groupedWrites(db);
    const seenByOthers: string[][] = [];
    const results = await Promise.allSettled([
      grouped(insert("a")),
      // Inside the same transaction: another connection does not see "a" yet.
      grouped(() => seenByOthers.push(committed())),
      grouped(insert("a")), // a constraint error: this call fails, the others stay
      grouped(insert("b")),
    ]);
    expect(seenByOthers).toEqual([[]]);
    expect(results.map((result) => result.status)).toEqual([
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
    ]);
    expect(committed()).toEqual(["a", "b"]);
  });

  it("rejects every call when the transaction cannot commit", async () => {
    const grouped = groupedWrites(db);
    const pending = [grouped(insert("a")), grouped(insert("b"))];
    db.close(); // before the end of the turn
    for (const call of pending) await expect(call).rejects.toThrow();
    db = new Database(join(directory, "test.db"));
    expect(committed()).toEqual([]);
  });

  it("on microtasks: writes asked for before the commit's microtask share it, before the next turn", async () => {
    const grouped = groupedWrites(db, queueMicrotask);
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const seenByOthers: string[][] = [];
    // Two continuations queued before either runs, as a grouped commit's callers are.
    const first = Promise.resolve().then(() => grouped(insert("a")));
    const second = Promise.resolve().then(() => grouped(() => seenByOthers.push(committed())));
    await Promise.all([first, second]);
    expect(seenByOthers).toEqual([[]]); // "a" not committed yet: the same transaction
    expect(turned).toBe(false); // committed without waiting for the check phase
    expect(committed()).toEqual(["a"]);
  });
});

describe("grouped run claims and ends (sqlite-runs.ts)", () => {
  it("exclusive claims of one conversation made together: the first wins, in one commit", async () => {
    const store = openSqliteStore({ path: join(directory, "runs.db") });
    await store.createTranscript({ ...NEW, id: "talk" });
    const claim = (runId: string) =>
      store.claimRun({
        runId,
        transcriptId: "talk",
        startedAt: 1,
        instanceId: "i",
        exclusive: true,
      });
    expect(await Promise.all([claim("run-1"), claim("run-2")])).toEqual([
      { ok: true },
      { ok: false, runId: "run-1" },
    ]);
    await Promise.all([store.recordRunEnd("run-1", 2), store.recordRunEnd("missing", 2)]);
    expect(await store.getRunInfo("run-1")).toMatchObject({ endedAt: 2 });
    expect(await claim("run-3")).toEqual({ ok: true });
    // A claim that fails in a shared commit fails alone.
    await store.createTranscript({ ...NEW, id: "other" });
    const open = (runId: string) =>
      store.claimRun({
        runId,
        transcriptId: "other",
        startedAt: 3,
        instanceId: "i",
        exclusive: false,
      });
    const [used, fresh] = await Promise.allSettled([open("run-3"), open("run-4")]);
    expect(used).toMatchObject({ status: "rejected", reason: { code: "conflict" } });
    expect(fresh).toEqual({ status: "fulfilled", value: { ok: true } });
    expect(await store.getRunInfo("run-4")).toMatchObject({ transcriptId: "other" });
    await store.close();
  });
});
