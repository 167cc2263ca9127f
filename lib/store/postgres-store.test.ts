/**
 * PostgreSQL-only behaviour, on a throwaway cluster: reopening, several instances on one
 * database (concurrent appends to one transcript keep `seq` gapless; migrations applied once
 * when instances start together; an adoption waits for a fenced append in flight), a schema
 * from a newer build, text PostgreSQL cannot hold, and an unreachable server.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { clockSkew, clockSkewWarning } from "./postgres-clock";
import { migrate } from "./postgres-migrate";
import { PG } from "./postgres-queries";
import { POSTGRES_MIGRATIONS } from "./postgres-schema";
import { openPostgresStore } from "./postgres-store";
import { postgresTestCluster } from "./postgres-testing";
import { WRITER_BATCH } from "./postgres-writer-child";
import type { RequestRecord } from "./store";
import { chunk, NEW, respond, user } from "./store-conformance";
import { growingRequests } from "./store-conformance-records";

const postgres = postgresTestCluster();

const writerScript = fileURLToPath(new URL("./postgres-writer-child.ts", import.meta.url));

/** Another process appending (`postgres-writer-child.ts`): `node --import tsx`, one process. */
function writer(url: string, transcriptId: string, runId: string, batches: number) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", writerScript, url, transcriptId, runId, String(batches)],
    {
      cwd: process.cwd(),
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stderr = "";
  child.stderr.on("data", (data: Buffer) => {
    stderr += data.toString();
  });
  const seqs: number[] = [];
  let buffer = "";
  const listeners: (() => void)[] = [];
  child.stdout.on("data", (data: Buffer) => {
    buffer += data.toString();
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    seqs.push(...lines.map(Number));
    for (const listener of listeners) listener();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    seqs,
    exited,
    stderr: () => stderr,
    onBatch: (f: () => void) => listeners.push(f),
  };
}

describe.skipIf(postgres.skip !== undefined)("postgres store", () => {
  it("measures this process's clock against the database's (a skew past a third of a lease is logged)", async () => {
    const client = new pg.Client({ connectionString: await postgres.createDatabase() });
    await client.connect();
    try {
      const inStep = await clockSkew(client, Date.now);
      const ahead = await clockSkew(client, () => Date.now() + 60_000);
      // One machine, one clock: only the round trip's asymmetry is left.
      expect(Math.abs(inStep)).toBeLessThan(1000);
      expect(ahead - inStep).toBeGreaterThan(59_000);
      expect(clockSkewWarning(ahead, "db")).toContain("60.0 s ahead of the database's (db)");
      expect(clockSkewWarning(inStep, "db")).toBeUndefined();
    } finally {
      await client.end();
    }
  });

  it("keeps everything across close and reopen, and continues the seq", async () => {
    const url = await postgres.createDatabase();
    let time = 1000;
    const now = () => time;
    const first = await postgres.open({ url, now });
    await first.createTranscript({ ...NEW, id: "t", title: "Kept", tools: ["read_file"] });
    await first.appendRecords("t", "run-1", [user("u1", "Ünïcode"), respond("r1", "answer")]);
    await first.relicSet("ns", "forever", { a: [1] });
    await first.relicSet("ns", "brief", "soon gone", 5);
    await first.close();

    const second = await postgres.open({ url, now });
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

  it("a paged walk fetches each message node about once (a page's chains stop at earlier pages' nodes)", async () => {
    const store = await postgres.open({});
    await store.createTranscript({ ...NEW, id: "walk" });
    const messages: { role: string; content: string }[] = [];
    for (let turn = 0; turn < 30; turn++) {
      messages.push(
        { role: "user", content: `question ${turn}` },
        { role: "assistant", content: `answer ${turn}` },
      );
      const request: RequestRecord = {
        kind: "request",
        turn,
        t: 0,
        provider: "p",
        model: "m",
        messages: [...messages],
        settings: {},
      };
      await store.appendRecords("walk", `run-${turn}`, [request, chunk(`piece ${turn}`)]);
    }
    // The node rows PostgreSQL sends back for the chain query, counted at the driver.
    const query = pg.Client.prototype.query;
    let chainRows = 0;
    const counting = function (this: pg.Client, ...args: unknown[]) {
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      const text = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string })?.text;
      if (text === PG.selectChains && result instanceof Promise)
        void result.then(
          (answer: { rows: unknown[] }) => {
            chainRows += answer.rows.length;
          },
          () => undefined,
        );
      return result;
    };
    pg.Client.prototype.query = counting as typeof query;
    try {
      let requests = 0;
      for await (const page of store.readRecordPages("walk", { pageSize: 6 }))
        for (const record of page)
          if (record.kind === "request") {
            requests++;
            expect(record.messages).toHaveLength(2 * (record.turn + 1));
          }
      expect(requests).toBe(30);
    } finally {
      pg.Client.prototype.query = query;
    }
    // 60 nodes, each fetched once; to the root on every page (10 pages of 3 turns) it was 330.
    expect(chainRows).toBe(60);
    await store.close();
  });

  it("keeps seq gapless when two instances append to one transcript at once", async () => {
    const url = await postgres.createDatabase();
    const one = await postgres.open({ url });
    const two = await postgres.open({ url });
    await one.createTranscript({ ...NEW, id: "shared" });
    // Each store has a pool of 4: up to 8 transactions race for the same row at any moment.
    const writes = Array.from({ length: 40 }, (_, index) => {
      const store = index % 2 === 0 ? one : two;
      return store.appendRecords("shared", `run-${index % 2}`, [
        chunk(`${index}.a`),
        chunk(`${index}.b`),
        chunk(`${index}.c`),
      ]);
    });
    const results = await Promise.all(writes);
    const records = (await two.getTranscript("shared"))?.records ?? [];
    expect(records.map((record) => record.seq)).toEqual(
      Array.from({ length: 120 }, (_, index) => index + 1),
    );
    // Each call's records are consecutive, in the order given, with the seqs it was told.
    for (const stored of results) {
      const first = stored[0]?.seq ?? 0;
      expect(stored.map((record) => record.seq)).toEqual([first, first + 1, first + 2]);
      const texts = stored.map((record) => (record.kind === "chunk" ? record.text : ""));
      expect(
        records.slice(first - 1, first + 2).map((r) => (r.kind === "chunk" ? r.text : "")),
      ).toEqual(texts);
    }
    expect((await one.listTranscripts())[0]?.recordCount).toBe(120);
    await one.close();
    await two.close();
  });

  it("keeps seq gapless with two processes and this one appending to one transcript", async () => {
    const url = await postgres.createDatabase();
    const store = await postgres.open({ url });
    await store.createTranscript({ ...NEW, id: "t" });
    const one = writer(url, "t", "p1", 30);
    const two = writer(url, "t", "p2", 30);
    // Both writers running before this process joins in, so all three overlap.
    await Promise.all(
      [one, two].map((child) => new Promise<void>((resolve) => child.onBatch(() => resolve()))),
    );
    for (let index = 0; index < 30; index++)
      await store.appendRecords("t", "here", [chunk(`${index}`)]);
    expect(await one.exited).toMatchObject({ code: 0 });
    expect(await two.exited).toMatchObject({ code: 0 });
    const records = (await store.getTranscript("t"))?.records ?? [];
    expect(records.map((record) => record.seq)).toEqual(
      Array.from({ length: 30 + 2 * 30 * WRITER_BATCH }, (_, index) => index + 1),
    );
    // Each process's batches are whole and in its order.
    for (const run of ["p1", "p2"]) {
      const texts = records
        .filter((r) => r.runId === run)
        .map((r) => (r.kind === "chunk" ? r.text : ""));
      expect(texts.map((text) => text.split(":").slice(1, 3).join(":"))).toEqual(
        Array.from(
          { length: 30 * WRITER_BATCH },
          (_, i) => `${Math.floor(i / WRITER_BATCH)}:${i % WRITER_BATCH}`,
        ),
      );
    }
    await store.close();
  }, 60_000);

  it("after a writer process is killed mid-append, holds a gapless prefix of whole batches", async () => {
    const url = await postgres.createDatabase();
    const store = await postgres.open({ url });
    await store.createTranscript({ ...NEW, id: "crash" });
    const child = writer(url, "crash", "crash-run", 0);
    const acknowledged = await new Promise<number>((resolve, reject) => {
      child.onBatch(() => {
        const last = child.seqs.at(-1) ?? 0;
        if (last >= 40 * WRITER_BATCH && !child.child.killed) {
          child.child.kill("SIGKILL");
          resolve(last);
        }
      });
      void child.exited.then(({ code }) =>
        reject(new Error(`The writer exited (${code}): ${child.stderr()}`)),
      );
    });
    expect((await child.exited).signal).toBe("SIGKILL");
    const records = (await store.getTranscript("crash"))?.records ?? [];
    expect(records.length).toBeGreaterThanOrEqual(acknowledged);
    expect(records.length % WRITER_BATCH).toBe(0);
    expect(records.map((record) => record.seq)).toEqual(records.map((_, index) => index + 1));
    expect((await store.listTranscripts())[0]?.recordCount).toBe(records.length);
    // The transcript takes appends again: the dead connection's lock went with it.
    expect((await store.appendRecords("crash", "next", [chunk("after")]))[0]?.seq).toBe(
      records.length + 1,
    );
    await store.close();
  }, 60_000);

  it("stores each message of a growing conversation once, whichever instance appends", async () => {
    const url = await postgres.createDatabase();
    const one = await postgres.open({ url });
    const two = await postgres.open({ url });
    await one.createTranscript({ ...NEW, id: "id" });
    const requests = growingRequests(40);
    for (const sent of requests.slice(0, 20)) await one.appendRecords("id", "run", [sent]);
    for (const sent of requests.slice(20)) await two.appendRecords("id", "run", [sent]);
    await one.close();
    await two.close();
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const nodes = await client.query("SELECT count(*)::int AS n FROM message_nodes");
    const inline = await client.query(
      "SELECT count(*)::int AS n FROM records WHERE body LIKE '%question%'",
    );
    await client.end();
    // 1 system message, then a user and an assistant message per turn (the last unanswered).
    expect(nodes.rows[0]).toEqual({ n: 1 + 40 * 2 - 1 });
    expect(inline.rows[0]).toEqual({ n: 0 });
  });

  it("groups batches from two instances into one transcript without gaps", async () => {
    const url = await postgres.createDatabase();
    const one = await postgres.open({ url });
    const two = await postgres.open({ url });
    await one.createTranscript({ ...NEW, id: "t" });
    const batch = (store: typeof one, run: string) =>
      store.appendRunRecords([
        { transcriptId: "t", runId: run, records: [chunk(run), chunk(run)] },
      ]);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => batch(index % 2 ? one : two, `r${index}`)),
    );
    expect(results.every(([result]) => result?.ok)).toBe(true);
    const seqs = ((await one.getTranscript("t"))?.records ?? []).map((record) => record.seq);
    expect(seqs).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    await one.close();
    await two.close();
  });

  it("an adoption waits for the old holder's fenced append in flight: none of its records lands after", async () => {
    const url = await postgres.createDatabase();
    const a = await postgres.open({ url });
    const b = await postgres.open({ url });
    await a.createTranscript({ ...NEW, id: "t" });
    await a.renewLease("A", 1);
    await a.claimRun({
      runId: "run",
      transcriptId: "t",
      startedAt: 0,
      instanceId: "A",
      exclusive: true,
    });
    // Another connection holds the transcript's row: A's append passes its fence, then waits.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    const waiting = async (count: number) => {
      const query = `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND wait_event_type = 'Lock'`;
      while ((await holder.query<{ n: number }>(query)).rows[0]?.n !== count)
        await new Promise((resolve) => setTimeout(resolve, 10));
    };
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM transcripts WHERE id = 't' FOR UPDATE");
      const appended = a.appendRunRecords([
        { transcriptId: "t", runId: "run", records: [chunk("late")], instanceId: "A" },
      ]);
      await waiting(1);
      // A's lease has ended: B adopts the run, but only once A's append has committed.
      const adopted = b.adoptRun("run", "B", 10);
      await waiting(2);
      await holder.query("COMMIT");
      expect(await appended).toEqual([{ ok: true, lastSeq: 1 }]);
      expect(await adopted).toBe(true);
      const [after] = await a.appendRunRecords([
        { transcriptId: "t", runId: "run", records: [chunk("later")], instanceId: "A" },
      ]);
      expect(after).toMatchObject({ ok: false, error: { code: "taken_over" } });
    } finally {
      await holder.end();
      await a.close();
      await b.close();
    }
  });

  it("reads requests two instances interleaved in one conversation", async () => {
    const url = await postgres.createDatabase();
    const one = await postgres.open({ url });
    const two = await postgres.open({ url });
    await one.createTranscript({ ...NEW, id: "t" });
    // Each instance caches the last message path it stored: the other's nodes must still count.
    const requests = growingRequests(8);
    for (const [index, request] of requests.entries())
      await (index % 2 === 0 ? one : two).appendRecords("t", "run", [request]);
    const read = (await one.getTranscript("t"))?.records as RequestRecord[];
    expect(read.map((record) => record.messages)).toEqual(requests.map((r) => r.messages));
    const page = await two.readRecords("t", { after: 6, limit: 1 });
    expect((page?.records[0] as RequestRecord | undefined)?.messages).toEqual(
      requests[6]?.messages,
    );
    await one.close();
    await two.close();
  });

  it("shares relics between instances", async () => {
    const url = await postgres.createDatabase();
    const one = await postgres.open({ url });
    const two = await postgres.open({ url });
    await one.relicSet("ns", "k", { from: "one" });
    expect(await two.relicGet("ns", "k")).toEqual({ from: "one" });
    expect(await two.relicDelete("ns", "k")).toBe(true);
    expect(await one.relicGet("ns", "k")).toBeUndefined();
    await one.close();
    await two.close();
  });

  it("migrates once when several instances open a fresh database at once", async () => {
    const url = await postgres.createDatabase();
    const stores = Array.from({ length: 4 }, () =>
      openPostgresStore({ connectionString: url, maxConnections: 2 }),
    );
    await Promise.all(stores.map((store) => store.ready()));
    await stores[0]?.createTranscript({ ...NEW, id: "t" });
    expect((await stores[3]?.getTranscript("t"))?.meta.id).toBe("t");
    await Promise.all(stores.map((store) => store.close()));
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const versions = await client.query("SELECT version FROM wirescope_migrations ORDER BY 1");
    expect(versions.rows).toEqual(POSTGRES_MIGRATIONS.map((_, index) => ({ version: index + 1 })));
    // Applying again is a no-op, and a database from a newer build is refused.
    expect(await migrate(client as never, 0)).toBe(POSTGRES_MIGRATIONS.length);
    await client.query("INSERT INTO wirescope_migrations VALUES (99, 0)");
    await client.end();
    const newer = openPostgresStore({ connectionString: url });
    await expect(newer.ready()).rejects.toThrow(/schema version 99, newer than this build's/);
    await expect(newer.getTranscript("t")).rejects.toThrow(/schema version 99/);
    await newer.close();
  });

  it("migration 3 splits each block's search text into parts; search and appends go on", async () => {
    const url = await postgres.createDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await migrate(client as never, 0, POSTGRES_MIGRATIONS.slice(0, 2));
    await client.query(`INSERT INTO transcripts (id, title, title_folded, created_at, updated_at,
      dialect, model_provider, model_id, system, tools) VALUES ('talk', 'Talk', 'talk', 1, 2,
      'xml', 'demo', 'scripted', '""', '[]')`);
    const long = `${"a".repeat(505)} needle😀 ${"b".repeat(500)}second marker ${"c".repeat(300)}`;
    const key = JSON.stringify(["run-1", 0, "respond", "r1"]);
    await client.query(
      "INSERT INTO search_blocks (transcript_id, block_key, text) VALUES ('talk', $1, $2), ('talk', 'short', 'hi')",
      [key, long],
    );
    const store = await postgres.open({ url });
    const parts = async () =>
      (
        await client.query(
          "SELECT block_key, part, char_length(text) AS length FROM search_parts ORDER BY 1, 2",
        )
      ).rows;
    const tail = [...long].length - 1024;
    expect(await parts()).toEqual([
      { block_key: key, part: 0, length: 512 },
      { block_key: key, part: 1, length: 512 },
      { block_key: key, part: 2, length: tail },
      { block_key: "short", part: 0, length: 2 },
    ]);
    const points = [...long];
    const leads = await client.query("SELECT part, lead FROM search_parts WHERE block_key = $1", [
      key,
    ]);
    expect(leads.rows).toEqual([
      { part: 0, lead: "" },
      { part: 1, lead: points.slice(512 - 63, 512).join("") },
      { part: 2, lead: points.slice(1024 - 63, 1024).join("") },
    ]);
    expect((await client.query("SELECT to_regclass('search_blocks') AS name")).rows).toEqual([
      { name: null },
    ]);
    const found = async (query: string) =>
      (await store.listTranscripts({ query })).map((summary) => summary.match?.text);
    expect(await found("needle😀")).toEqual(["needle😀"]);
    expect(await found("second marker")).toEqual(["second marker"]);
    // The block's next pieces go on at the end of its last part, then in new ones.
    await store.appendRecords("talk", "run-1", [respond("r1", "-tail")]);
    expect(await found("ccc-tail")).toEqual(["ccc-tail"]);
    // 203 characters fill part 2: the cut falls right after "CUT".
    await store.appendRecords("talk", "run-1", [
      respond("r1", `${"d".repeat(200)}CUT${"e".repeat(400)}end`),
    ]);
    expect(await parts()).toEqual([
      { block_key: key, part: 0, length: 512 },
      { block_key: key, part: 1, length: 512 },
      { block_key: key, part: 2, length: 512 },
      { block_key: key, part: 3, length: tail + 5 + 606 - 512 },
      { block_key: "short", part: 0, length: 2 },
    ]);
    expect(await found("eeend")).toEqual(["eeend"]);
    // Across the cut the last piece made: part 3 leads with part 2's end.
    expect(await found("ddcutee")).toEqual(["ddcutee"]);
    await client.end();
    await store.close();
  });

  it("round-trips a system prompt with NUL; refuses NUL where PostgreSQL cannot hold it", async () => {
    const store = await postgres.open();
    const meta = await store.createTranscript({ ...NEW, id: "t", system: "a\u0000b 🌍" });
    expect(meta.system).toBe("a\u0000b 🌍");
    expect((await store.getTranscript("t"))?.meta.system).toBe("a\u0000b 🌍");
    // Search text keeps NUL as U+FFFD; the record itself comes back exact.
    await store.appendRecords("t", "run", [user("u1", "find\u0000me")]);
    expect((await store.listTranscripts({ query: "find\u0000me" })).map((s) => s.id)).toEqual([
      "t",
    ]);
    expect((await store.getTranscript("t"))?.records[0]).toMatchObject(user("u1", "find\u0000me"));
    await expect(store.relicSet("ns\u0000", "k", 1)).rejects.toMatchObject({ code: "invalid" });
    await expect(store.appendRecords("t", "run\u0000", [chunk("x")])).rejects.toMatchObject({
      code: "invalid",
    });
    expect((await store.getTranscript("t"))?.records).toHaveLength(1);
    // In a group, a batch PostgreSQL refuses fails alone: the others are written once.
    const results = await store.appendRunRecords([
      { transcriptId: "t", runId: "ok-1", records: [chunk("a")] },
      { transcriptId: "t", runId: "bad\u0000", records: [chunk("b")] },
      { transcriptId: "missing", runId: "m", records: [chunk("c")] },
      { transcriptId: "t", runId: "ok-2", records: [chunk("d")] },
    ]);
    expect(results.map((result) => (result.ok ? result.lastSeq : result.error))).toMatchObject([
      2,
      { code: "invalid" },
      { code: "not_found" },
      3,
    ]);
    expect((await store.getTranscript("t"))?.records.map((record) => record.runId)).toEqual([
      "run",
      "ok-1",
      "ok-2",
    ]);
    await store.close();
  });

  it("rejects with `unavailable`, naming the database without its password, when unreachable", async () => {
    const store = openPostgresStore({
      // Port 1 on this machine: nothing listens there.
      connectionString: "postgres://someone:hunter2@127.0.0.1:1/nowhere",
    });
    const failure = await store.ready().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "unavailable" });
    expect(String((failure as Error).message)).toContain(
      "postgres://someone:***@127.0.0.1:1/nowhere",
    );
    expect(String((failure as Error).message)).not.toContain("hunter2");
    await expect(store.listTranscripts()).rejects.toMatchObject({ code: "unavailable" });
    await store.close();
    await expect(store.listTranscripts()).rejects.toMatchObject({ code: "closed" });
  });
});
