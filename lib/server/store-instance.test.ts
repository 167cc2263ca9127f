/** The server's store on PostgreSQL (DATABASE_URL), on a throwaway cluster. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { postgresTestCluster } from "../store/postgres-testing";
import { getStore } from "./store-instance";

const postgres = postgresTestCluster();
const directory = mkdtempSync(join(tmpdir(), "wirescope-instance-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe("getStore", () => {
  it("refuses a DATABASE_URL that is not PostgreSQL, naming it", () => {
    expect(() => getStore(directory, { DATABASE_URL: "mysql://root:pw@h/db" })).toThrow(
      /^DATABASE_URL has the scheme "mysql:"/,
    );
  });

  it("answers `unavailable` while the database cannot be reached, and opens it again later", async () => {
    const url = "postgres://nobody:pw@127.0.0.1:1/none";
    const store = getStore(directory, { DATABASE_URL: url });
    await expect(store.listTranscripts()).rejects.toMatchObject({ code: "unavailable" });
    // Not cached: the next call opens a new store (a database that was down is tried again).
    expect(getStore(directory, { DATABASE_URL: url })).not.toBe(store);
  });

  it.skipIf(postgres.skip !== undefined)(
    "opens PostgreSQL when DATABASE_URL is set, marking runs a dead instance left",
    async () => {
      const url = await postgres.createDatabase();
      const before = await postgres.open({ url });
      const meta = await before.createTranscript({
        dialect: "xml",
        model: { provider: "demo", id: "x" },
      });
      await before.recordRunStart({ runId: "killed", transcriptId: meta.id, startedAt: 1 });
      await before.close();
      const store = getStore(directory, { DATABASE_URL: url });
      expect(getStore(directory, { DATABASE_URL: url })).toBe(store);
      const records = (await store.getTranscript(meta.id))?.records ?? [];
      expect(records).toMatchObject([{ event: { type: "interrupt", reason: "crash" } }]);
      expect(await store.listUnfinishedRuns()).toEqual([]);
      await store.close();
    },
  );
});
