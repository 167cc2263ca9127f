/**
 * PostgreSQL-only behaviour, on a throwaway cluster: reopening, several instances on one
 * database (concurrent appends to one transcript keep `seq` gapless; migrations applied once
 * when instances start together), a schema from a newer build, text PostgreSQL cannot hold,
 * and an unreachable server.
 */
import { describe, expect, it } from "vitest";
import { migrate } from "./postgres-migrate";
import { POSTGRES_MIGRATIONS } from "./postgres-schema";
import { openPostgresStore } from "./postgres-store";
import { postgresTestCluster } from "./postgres-testing";
import type { RequestRecord } from "./store";
import { chunk, NEW, respond, user } from "./store-conformance";
import { growingRequests } from "./store-conformance-records";

const postgres = postgresTestCluster();

describe.skipIf(postgres.skip !== undefined)("postgres store", () => {
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
