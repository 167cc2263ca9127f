import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { groupedWrites } from "./sqlite-grouped";

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
});
