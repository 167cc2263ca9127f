/** Migrations that change what live runs write: an existing file keeps its data and reads. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "./sqlite-store";
import { chunk, NEW, user } from "./store-conformance";
import { request } from "./store-conformance-records";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "wirescope-sqlite-schema-"));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const indexes = (path: string): string[] => {
  const check = new Database(path, { readonly: true });
  const names = check
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'records'")
    .all() as { name: string }[];
  check.close();
  return names.map((row) => row.name);
};

describe("sqlite schema 8", () => {
  it("drops the per-chunk turn index; a schema-7 file keeps its records and its highest turn", async () => {
    const path = join(directory, "v7.db");
    const old = openSqliteStore({ path });
    await old.createTranscript({ ...NEW, id: "talk" });
    await old.appendRecords("talk", "run-1", [
      user("u1", "hi"),
      request(0, [{ role: "user", content: "hi" }]),
      chunk("a", 0),
      request(1, [{ role: "user", content: "hi" }]),
      chunk("b", 1),
      chunk("c", 1),
    ]);
    await old.close();
    // Made a schema-7 file again, as the previous build left it: version 7, the index there.
    const raw = new Database(path);
    raw.pragma("user_version = 7");
    raw.exec("CREATE INDEX records_turn ON records (transcript_id, turn) WHERE turn IS NOT NULL");
    raw.close();
    expect(indexes(path)).toContain("records_turn");

    const reopened = openSqliteStore({ path });
    const conversation = await reopened.getConversation("talk");
    // The user event, then the last record of the highest turn (chunk "c").
    expect(conversation?.records.map((record) => record.seq)).toEqual([1, 6]);
    expect((await reopened.getTranscript("talk"))?.records).toHaveLength(6);
    await reopened.close();
  });
});
