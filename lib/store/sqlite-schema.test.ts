/** Migrations that change what live runs write: an existing file keeps its data and reads. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS } from "./sqlite-schema";
import { openSqliteStore } from "./sqlite-store";
import { chunk, user } from "./store-conformance";
import { request } from "./store-conformance-records";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "wirescope-sqlite-schema-"));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const recordIndexes = (path: string): string[] => {
  const check = new Database(path, { readonly: true });
  const names = check
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'records'")
    .all() as { name: string }[];
  check.close();
  return names.map((row) => row.name);
};

/** A schema-7 file (the build before): one transcript with `records`, given as [kind, body, turn]. */
function schema7File(path: string, records: [string, unknown, number | null][]): void {
  const raw = new Database(path);
  for (const migration of MIGRATIONS.slice(0, 7)) raw.exec(migration);
  raw.pragma("user_version = 7");
  raw
    .prepare(`INSERT INTO transcripts (id, title, title_folded, created_at, updated_at, dialect,
      model_provider, model_id, last_seq) VALUES ('talk', 'Talk', 'talk', 1, 2, 'xml', 'demo',
      'scripted', ?)`)
    .run(records.length);
  raw
    .prepare("INSERT INTO transcript_settings (transcript_id, system, tools) VALUES (?, '', '[]')")
    .run("talk");
  const insert = raw.prepare(`INSERT INTO records (transcript_id, seq, run_id, kind, body, turn)
    VALUES ('talk', ?, 'run-1', ?, ?, ?)`);
  records.forEach(([kind, body, turn], index) => {
    insert.run(index + 1, kind, JSON.stringify(body), turn);
  });
  raw.close();
}

describe("sqlite schema 8", () => {
  it("drops the per-chunk turn index and keeps each conversation's highest turn", async () => {
    const path = join(directory, "v7.db");
    const asked = request(2, [{ role: "user", content: "hi" }]);
    const { messages: _inline, ...stored } = asked;
    // Turns out of order on purpose: the highest (2) is not the last one written.
    schema7File(path, [
      ["event", user("u1", "hi"), null],
      ["request", { ...stored, messages: [{ role: "user", content: "hi" }] }, 2],
      ["chunk", chunk("a", 2), 2],
      ["chunk", chunk("b", 2), 2],
      ["chunk", chunk("c", 1), 1],
    ]);
    expect(recordIndexes(path)).toContain("records_turn");

    const store = openSqliteStore({ path });
    expect(recordIndexes(path)).not.toContain("records_turn");
    const seqs = async () =>
      (await store.getConversation("talk"))?.records.map((record) => record.seq);
    // The user event, then the last record of the highest turn (chunk "b", seq 4).
    expect(await seqs()).toEqual([1, 4]);
    expect((await store.getTranscript("talk"))?.records).toHaveLength(5);
    // Appends keep it: a lower turn leaves it, an equal or higher one moves it.
    await store.appendRecords("talk", "run-2", [chunk("d", 0)]);
    expect(await seqs()).toEqual([1, 4]);
    await store.appendRecords("talk", "run-2", [chunk("e", 2), chunk("f", 1)]);
    expect(await seqs()).toEqual([1, 7]);
    await store.appendRecords("talk", "run-2", [
      request(3, [{ role: "user", content: "more" }]),
      chunk("g", 3),
      chunk("h", 0),
      user("u2", "later"),
    ]);
    expect(await seqs()).toEqual([1, 10, 12]);
    await store.close();
  });

  it("a transcript with no turn yet has no such record", async () => {
    const path = join(directory, "none.db");
    schema7File(path, [["event", user("u1", "hi"), null]]);
    const store = openSqliteStore({ path });
    expect((await store.getConversation("talk"))?.records.map((record) => record.seq)).toEqual([1]);
    await store.close();
  });
});
