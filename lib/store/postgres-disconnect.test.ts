/**
 * PostgreSQL ending a connection the store has checked out (a restart, a failover, an
 * administrator's `pg_terminate_backend`): the call under way fails with a store error and the
 * process carries on. A client ended between two statements of a transaction is reported as
 * an `error` event on the client, and an event with no listener is an uncaught exception,
 * which Vitest reports as a failure of this file.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { postgresTestCluster } from "./postgres-testing";
import { chunk, NEW } from "./store-conformance";

const postgres = postgresTestCluster();

describe.skipIf(postgres.skip !== undefined)("PostgreSQL store, connections ended under it", () => {
  it("fails the calls under way, never the process, and works once connections come back", async () => {
    const url = await postgres.createDatabase();
    const store = await postgres.open({ url });
    await store.createTranscript({ ...NEW, id: "t" });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    let stop = false;
    let failed = 0;
    const appending = (async () => {
      for (let index = 0; !stop; index++) {
        await store
          .appendRunRecords([{ transcriptId: "t", runId: "r", records: [chunk(`${index}`)] }])
          .then((results) => {
            if (results.some((result) => !result.ok)) failed++;
          })
          .catch(() => failed++);
      }
    })();
    for (let round = 0; round < 40; round++) {
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'wirescope' AND pid <> pg_backend_pid()",
      );
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    stop = true;
    await appending;
    await admin.end();
    expect(failed).toBeGreaterThan(0);
    const [result] = await store.appendRunRecords([
      { transcriptId: "t", runId: "r", records: [chunk("after")] },
    ]);
    expect(result?.ok).toBe(true);
    await store.close();
  });
});
