/** SQLite-only behaviour: the file, its settings, reopening, and surviving a killed writer. */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CRASH_BATCH } from "./sqlite-crash-child";
import { MIGRATIONS } from "./sqlite-schema";
import { openSqliteStore } from "./sqlite-store";
import { chunk, NEW, respond, user } from "./store-conformance";
import { growingRequests, request } from "./store-conformance-records";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "wirescope-sqlite-"));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

describe("sqlite store", () => {
  it("creates the directory and opens in WAL, synchronous NORMAL, foreign keys on", async () => {
    const path = join(directory, "nested", "deeper", "store.db");
    const store = openSqliteStore({ path });
    expect(await store.diagnostics()).toEqual({
      path,
      journalMode: "wal",
      synchronous: 1,
      foreignKeys: true,
      userVersion: MIGRATIONS.length,
      walAutocheckpoint: 5000,
      integrity: "ok",
    });
    await store.close();
    expect(existsSync(path)).toBe(true);
  });

  it("stores a run batch's records with the JSON handed in, serialising none again", async () => {
    const store = openSqliteStore({ path: join(directory, "store.db") });
    const meta = await store.createTranscript(NEW);
    const given = chunk("made once");
    // The same record with its keys in another order: what is stored shows which JSON was used.
    const json = JSON.stringify({ text: "made once", t: 1.5, turn: 0, kind: "chunk" });
    const [result] = await store.appendRunRecords([
      { transcriptId: meta.id, runId: "r1", records: [given, chunk("not given")], json: [json] },
    ]);
    expect(result).toEqual({ ok: true, lastSeq: 2 });
    const records = (await store.getTranscript(meta.id))?.records ?? [];
    expect(records.map((record) => Object.keys(record))).toEqual([
      ["text", "t", "turn", "kind", "seq", "runId"],
      ["kind", "turn", "t", "text", "seq", "runId"],
    ]);
    await store.close();
  });

  it("stores the other batches of a commit when one fails halfway through its writes", async () => {
    const path = join(directory, "store.db");
    const store = openSqliteStore({ path });
    const meta = await store.createTranscript(NEW);
    // A failure only the insert of the records can find (after the seqs were reserved).
    const other = new Database(path);
    other.exec(`CREATE TRIGGER refuse BEFORE INSERT ON records WHEN NEW.run_id = 'boom'
      BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    other.close();
    const results = await store.appendRunRecords([
      { transcriptId: meta.id, runId: "r1", records: [chunk("a"), respond("x", "one ")] },
      { transcriptId: meta.id, runId: "boom", records: [chunk("b")] },
      { transcriptId: meta.id, runId: "r2", records: [respond("x", "two")] },
    ]);
    expect(results.map((result) => (result.ok ? result.lastSeq : "failed"))).toEqual([
      2,
      "failed",
      3,
    ]);
    const records = (await store.getTranscript(meta.id))?.records ?? [];
    expect(records.map((record) => [record.seq, record.runId])).toEqual([
      [1, "r1"],
      [2, "r1"],
      [3, "r2"],
    ]);
    expect((await store.listTranscripts({ query: "one" })).map((found) => found.id)).toEqual([
      meta.id,
    ]);
    await store.close();
  });

  it("keeps everything across close and reopen, and continues the seq", async () => {
    const path = join(directory, "store.db");
    let time = 1000;
    const now = () => time;
    const first = openSqliteStore({ path, now });
    await first.createTranscript({ ...NEW, id: "t", title: "Kept", tools: ["read_file"] });
    await first.appendRecords("t", "run-1", [user("u1", "Ünïcode"), respond("r1", "answer")]);
    await first.relicSet("ns", "forever", { a: [1] });
    await first.relicSet("ns", "brief", "soon gone", 5);
    await first.close();

    const second = openSqliteStore({ path, now });
    const transcript = await second.getTranscript("t");
    expect(transcript?.meta).toMatchObject({ title: "Kept", tools: ["read_file"] });
    expect(transcript?.records.map((record) => record.seq)).toEqual([1, 2]);
    expect((await second.appendRecords("t", "run-2", [chunk("more")]))[0]?.seq).toBe(3);
    expect((await second.listTranscripts({ query: "ünï" })).map((summary) => summary.id)).toEqual([
      "t",
    ]);
    expect(await second.relicGet("ns", "forever")).toEqual({ a: [1] });
    time += 5000;
    expect(await second.relicGet("ns", "brief")).toBeUndefined();
    await second.close();
  });

  it("shares one file between connections without mixing transcripts", async () => {
    const path = join(directory, "shared.db");
    const one = openSqliteStore({ path });
    const two = openSqliteStore({ path });
    await one.createTranscript({ ...NEW, id: "a" });
    await two.createTranscript({ ...NEW, id: "b" });
    for (let index = 0; index < 10; index++) {
      await one.appendRecords("a", "run-a", [chunk(`a${index}`)]);
      await two.appendRecords("b", "run-b", [chunk(`b${index}`)]);
      await two.appendRecords("a", "run-a2", [chunk(`a2-${index}`)]);
    }
    const a = (await one.getTranscript("a"))?.records ?? [];
    expect(a.map((record) => record.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(a.slice(0, 2).map((record) => record.runId)).toEqual(["run-a", "run-a2"]);
    expect((await one.getTranscript("b"))?.records).toHaveLength(10);
    await one.close();
    await two.close();
  });

  it("refuses a file whose schema is newer than this build", async () => {
    const path = join(directory, "future.db");
    const store = openSqliteStore({ path });
    await store.close();
    // Tests may use the driver directly; product code imports it only in sqlite-store.ts.
    const { default: Database } = await import("better-sqlite3");
    const raw = new Database(path);
    raw.pragma("user_version = 99");
    raw.close();
    expect(() => openSqliteStore({ path })).toThrow(/schema version 99/);
  });

  it("migrating a version-1 file marks the transcripts imported before as imports", async () => {
    const path = join(directory, "v1.db");
    const { default: Database } = await import("better-sqlite3");
    const raw = new Database(path);
    raw.exec(MIGRATIONS[0] ?? "");
    raw.pragma("user_version = 1");
    const insert = raw.prepare(`INSERT INTO transcripts (id, title, title_folded, created_at,
      updated_at, dialect, model_provider, model_id, system, tools) VALUES (?, ?, ?, 1, 1, 'xml',
      'demo', 'scripted', '', '[]')`);
    insert.run("made-here", "Here", "here");
    insert.run("imported", "There", "there");
    raw
      .prepare("INSERT INTO relics (namespace, key, value) VALUES (?, ?, ?)")
      .run("wirescope.imports", "imported", '{"originalId":"x","importedAt":1}');
    raw.close();
    const store = openSqliteStore({ path });
    expect((await store.getTranscript("made-here"))?.meta.source).toBe("playground");
    expect((await store.getTranscript("imported"))?.meta.source).toBe("import");
    await store.close();
  });

  it("migrating a version-6 file moves the settings out of the transcripts' row and keeps all", async () => {
    const path = join(directory, "v6.db");
    const { default: Database } = await import("better-sqlite3");
    const raw = new Database(path);
    for (const migration of MIGRATIONS.slice(0, 6)) raw.exec(migration);
    raw.pragma("user_version = 6");
    const system = `You are careful. ${"Think before acting. ".repeat(250)}`;
    const definition = { name: "mine", open: "<<", close: ">>" };
    const insert = raw.prepare(`INSERT INTO transcripts (id, title, title_folded, created_at,
      updated_at, deleted_at, dialect, model_provider, model_id, system, tools, parent_id,
      fork_point, definition, source, last_seq)
      VALUES (?, ?, ?, ?, ?, ?, ?, 'demo', 'scripted', ?, ?, ?, ?, ?, ?, ?)`);
    insert.run(
      "root",
      "Root Talk",
      "root talk",
      1,
      30,
      null,
      "custom",
      system,
      '["read_file","shell"]',
      null,
      null,
      JSON.stringify(definition),
      "playground",
      2,
    );
    insert.run("fork", "Fork", "fork", 2, 20, null, "xml", "", "[]", "root", 1, null, "import", 1);
    insert.run("gone", "Gone", "gone", 3, 40, 50, "xml", "s", "[]", null, null, null, "capture", 0);
    const record = raw.prepare(`INSERT INTO records (transcript_id, seq, run_id, kind, body, turn)
      VALUES (?, ?, 'run-1', ?, ?, ?)`);
    const first = user("u1", "Find the Needle");
    const second = chunk("hello", 0);
    record.run("root", 1, "event", JSON.stringify(first), null);
    record.run("root", 2, "chunk", JSON.stringify(second), 0);
    record.run("fork", 1, "event", JSON.stringify(first), null);
    raw
      .prepare("INSERT INTO search_blocks (transcript_id, block_key, text) VALUES (?, ?, ?)")
      .run("root", "user:u1", "find the needle");
    raw
      .prepare("INSERT INTO runs (run_id, transcript_id, started_at, ended_at) VALUES (?, ?, ?, ?)")
      .run("run-1", "root", 5, 6);
    raw.close();

    const store = openSqliteStore({ path, now: () => 100 });
    const root = await store.getTranscript("root");
    expect(root?.meta).toEqual({
      id: "root",
      title: "Root Talk",
      createdAt: 1,
      updatedAt: 30,
      dialect: "custom",
      model: { provider: "demo", id: "scripted" },
      system,
      tools: ["read_file", "shell"],
      source: "playground",
      definition,
    });
    expect(root?.records).toEqual([
      { ...first, seq: 1, runId: "run-1" },
      { ...second, seq: 2, runId: "run-1" },
    ]);
    expect((await store.getTranscript("fork"))?.meta).toMatchObject({
      parentId: "root",
      forkPoint: 1,
      source: "import",
      system: "",
      tools: [],
    });
    const listed = await store.listTranscripts();
    expect(listed.map((summary) => [summary.id, summary.recordCount])).toEqual([
      ["root", 2],
      ["fork", 1],
    ]);
    expect((await store.listTranscripts({ query: "NEEDLE" })).map((s) => s.id)).toEqual(["root"]);
    expect(await store.getTranscript("gone")).toBeNull();
    expect(await store.restoreTranscript("gone")).toBe(true);
    expect((await store.getTranscript("gone"))?.meta.source).toBe("capture");
    expect(await store.getRunInfo("run-1")).toMatchObject({ transcriptId: "root", endedAt: 6 });
    // Appends continue the seq and bump the (now narrow) row; renames still read the settings.
    await store.appendRecords("root", "run-2", [user("u2", "more")]);
    const renamed = await store.renameTranscript("root", "Renamed");
    expect(renamed).toMatchObject({ title: "Renamed", updatedAt: 100, system, definition });
    expect(
      (await store.readRecords("root", { after: 2, limit: 10 }))?.records.map((r) => r.seq),
    ).toEqual([3]);
    await store.close();

    const check = new Database(path, { readonly: true });
    const columns = (table: string) =>
      (check.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map(
        (column) => column.name,
      );
    expect(columns("transcripts")).not.toContain("system");
    expect(columns("transcripts")).not.toContain("definition");
    expect(columns("transcript_settings")).toEqual([
      "transcript_id",
      "system",
      "tools",
      "definition",
    ]);
    check.close();
  });

  it("purges a refused import's rows from every table, and leaves another transcript's", async () => {
    const path = join(directory, "purge.db");
    const store = openSqliteStore({ path });
    for (const id of ["gone", "kept"]) {
      await store.createTranscript({ ...NEW, id });
      await store.appendRecords(id, "run", [
        user("u", "some words to search"),
        ...growingRequests(3),
      ]);
      await store.appendRecords(
        id,
        "run",
        Array.from({ length: 7_000 }, () => chunk("c ")),
      );
    }
    await store.deleteTranscript("gone");
    expect(await store.purgeTranscript("gone")).toBe(true);
    await store.close();
    const raw = new Database(path, { readonly: true });
    const count = (table: string, id: string) =>
      (
        raw.prepare(`SELECT count(*) AS n FROM ${table} WHERE transcript_id = ?`).get(id) as {
          n: number;
        }
      ).n;
    const tables = ["records", "search_parts", "message_nodes", "transcript_settings"];
    expect(tables.map((table) => count(table, "gone"))).toEqual([0, 0, 0, 0]);
    expect(count("records", "kept")).toBe(7_004);
    expect(count("search_parts", "kept")).toBeGreaterThan(0);
    expect(count("message_nodes", "kept")).toBeGreaterThan(0);
    raw.close();
  });

  it("stores each message of a growing conversation once", async () => {
    const path = join(directory, "linear.db");
    const store = openSqliteStore({ path });
    await store.createTranscript({ ...NEW, id: "id" });
    const requests = growingRequests(40);
    // One request per call, as runs write them, then the same again from a second connection.
    for (const sent of requests.slice(0, 20)) await store.appendRecords("id", "run", [sent]);
    const other = openSqliteStore({ path });
    for (const sent of requests.slice(20)) await other.appendRecords("id", "run", [sent]);
    await other.close();
    await store.close();
    const { default: Database } = await import("better-sqlite3");
    const raw = new Database(path, { readonly: true });
    const nodes = raw.prepare("SELECT count(*) AS n FROM message_nodes").get() as { n: number };
    const inline = raw
      .prepare("SELECT count(*) AS n FROM records WHERE body LIKE '%question%'")
      .get() as { n: number };
    raw.close();
    // 1 system message, then a user and an assistant message per turn (the last unanswered).
    expect(nodes.n).toBe(1 + 40 * 2 - 1);
    expect(inline.n).toBe(0);
  });

  it("reads requests written before messages were stored apart (schema 1)", async () => {
    const path = join(directory, "old.db");
    const { default: Database } = await import("better-sqlite3");
    const raw = new Database(path);
    raw.exec(MIGRATIONS[0] as string);
    raw.pragma("user_version = 1");
    raw
      .prepare(
        `INSERT INTO transcripts (id, title, title_folded, created_at, updated_at, dialect,
          model_provider, model_id, system, tools) VALUES ('old', 't', 't', 1, 1, 'xml', 'demo', 'd', '', '[]')`,
      )
      .run();
    const old = request(4, [{ role: "user", content: "kept inline" }]);
    raw
      .prepare(
        "INSERT INTO records (transcript_id, seq, run_id, kind, body) VALUES (?, ?, ?, ?, ?)",
      )
      .run("old", 1, "run", "request", JSON.stringify(old));
    raw.prepare("UPDATE transcripts SET last_seq = 1 WHERE id = 'old'").run();
    raw.close();
    const store = openSqliteStore({ path });
    expect((await store.getTranscript("old"))?.records).toEqual([{ ...old, seq: 1, runId: "run" }]);
    // The migration filled in the turn, so the next run continues after it.
    await store.appendRecords("old", "run", [user("u", "next")]);
    expect((await store.getConversation("old"))?.records.map((record) => record.seq)).toEqual([
      1, 2,
    ]);
    await store.close();
  });

  it("after a writer is killed mid-append, holds a gapless prefix and passes integrity_check", async () => {
    const path = join(directory, "crash.db");
    const setup = openSqliteStore({ path });
    await setup.createTranscript({ ...NEW, id: "crash" });
    await setup.close();

    const script = fileURLToPath(new URL("./sqlite-crash-child.ts", import.meta.url));
    // `node --import tsx`, not `npx tsx`: one process, so SIGKILL hits the writer itself
    // rather than a wrapper that would leave it running.
    const child = spawn(process.execPath, ["--import", "tsx", script, path, "crash"], {
      cwd: process.cwd(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (data: Buffer) => {
      stderr += data.toString();
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) => {
      child.on("exit", (_code, signal) => resolve(signal));
    });
    const acknowledged = await new Promise<number>((resolve, reject) => {
      let buffer = "";
      child.stdout.on("data", (data: Buffer) => {
        buffer += data.toString();
        const lines = buffer.split("\n");
        buffer = lines.pop() ?? "";
        const last = Number(lines.at(-1) ?? 0);
        if (last >= 100 * CRASH_BATCH && !child.killed) {
          child.kill("SIGKILL");
          resolve(last);
        }
      });
      child.on("exit", (code) =>
        reject(new Error(`The writer exited on its own (${code}): ${stderr}`)),
      );
    });
    const signal = await exited;
    expect(signal).toBe("SIGKILL");

    const reopened = openSqliteStore({ path });
    expect((await reopened.diagnostics()).integrity).toBe("ok");
    const records = (await reopened.getTranscript("crash"))?.records ?? [];
    // Every batch the child reported is there (it may have committed more before the signal
    // landed); the batch in flight is whole or absent.
    expect(records.length).toBeGreaterThanOrEqual(acknowledged);
    expect(records.length % CRASH_BATCH).toBe(0);
    records.forEach((record, index) => {
      expect(record.seq).toBe(index + 1);
      const text = record.kind === "chunk" ? record.text : "";
      expect(text.startsWith(`${Math.floor(index / CRASH_BATCH)}:${index % CRASH_BATCH}:`)).toBe(
        true,
      );
    });
    const [summary] = await reopened.listTranscripts();
    expect(summary?.recordCount).toBe(records.length);
    await reopened.close();
  }, 30_000);
});
