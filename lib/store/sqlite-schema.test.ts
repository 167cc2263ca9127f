/** Migrations that change what live runs write: an existing file keeps its data and reads. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS } from "./sqlite-schema";
import { openSqliteStore } from "./sqlite-store";
import { chunk, respond, user } from "./store-conformance";
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

/** A file of schema `version`: one transcript with `records`, given as [kind, body, turn]. */
function schemaFile(
  version: number,
  path: string,
  records: [string, unknown, number | null][],
): Database.Database {
  const raw = new Database(path);
  for (const migration of MIGRATIONS.slice(0, version)) raw.exec(migration);
  raw.pragma(`user_version = ${version}`);
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
  return raw;
}

/** A schema-7 file (before migration 8). */
const schema7File = (path: string, records: [string, unknown, number | null][]) =>
  schemaFile(7, path, records).close();

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

describe("sqlite schema 9", () => {
  it("splits each block's search text into parts; search and appends go on", async () => {
    const path = join(directory, "v8.db");
    const raw = schemaFile(8, path, [["event", user("u1", "hi"), null]]);
    const long = `${"a".repeat(505)} needle😀 ${"b".repeat(500)}second marker ${"c".repeat(300)}`;
    const block = raw.prepare(
      "INSERT INTO search_blocks (transcript_id, block_key, text) VALUES ('talk', ?, ?)",
    );
    const key = JSON.stringify(["run-1", 0, "respond", "r1"]);
    block.run("short", "hi");
    block.run(key, long);
    // Stored before search text folded NUL: what follows one stays searchable.
    block.run("nul", `x\u0000${"y".repeat(600)}`);
    raw.close();

    const store = openSqliteStore({ path });
    const check = new Database(path, { readonly: true });
    const tables = check.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all();
    expect(tables).not.toContainEqual({ name: "search_blocks" });
    const parts = () =>
      check
        .prepare("SELECT block_key, part, length(text) AS length FROM search_parts ORDER BY 1, 2")
        .all();
    const tail = [...long].length - 1024;
    expect(parts()).toEqual([
      { block_key: key, part: 0, length: 512 },
      { block_key: key, part: 1, length: 512 },
      { block_key: key, part: 2, length: tail },
      { block_key: "nul", part: 0, length: 512 },
      { block_key: "nul", part: 1, length: 90 },
      { block_key: "short", part: 0, length: 2 },
    ]);
    const found = async (query: string) =>
      (await store.listTranscripts({ query })).map((summary) => summary.match?.text);
    expect(await found("needle😀")).toEqual(["needle😀"]);
    expect(await found("second marker")).toEqual(["second marker"]);
    const leads = check.prepare("SELECT part, lead FROM search_parts WHERE block_key = ?").all(key);
    const points = [...long];
    expect(leads).toEqual([
      { part: 0, lead: "" },
      { part: 1, lead: points.slice(512 - 63, 512).join("") },
      { part: 2, lead: points.slice(1024 - 63, 1024).join("") },
    ]);
    expect(await found("hi")).toEqual(["hi"]);
    expect(await found("x\u0000yy")).toEqual(["x\ufffdyy"]);
    // The block's next piece goes on at the end of its last part.
    await store.appendRecords("talk", "run-1", [respond("r1", "-tail")]);
    expect(await found("ccc-tail")).toEqual(["ccc-tail"]);
    expect(parts()).toContainEqual({ block_key: key, part: 2, length: tail + 5 });
    expect(parts()).toHaveLength(6);
    check.close();
    await store.close();
  });
});
