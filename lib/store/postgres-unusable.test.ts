/**
 * A real PostgreSQL server refusing or cutting off the store (not a fake error): the store
 * rejects with `unavailable` naming the cause, which routes answer with a 503 and `Retry-After`
 * (`app/api/http.ts`), instead of passing the driver's error on to become a 500.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { openPostgresStore } from "./postgres-store";
import { postgresTestCluster } from "./postgres-testing";
import { NEW } from "./store-conformance";

const postgres = postgresTestCluster();

/** `url` with its user replaced (the cluster trusts every local login). */
function as(url: string, user: string): string {
  const parsed = new URL(url);
  parsed.username = user;
  return parsed.toString();
}

async function admin<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(postgres.skip !== undefined)("postgres store that cannot be used now", () => {
  it("a role over its CONNECTION LIMIT (53300): `unavailable`, too many connections", async () => {
    const url = await postgres.createDatabase();
    const role = `limited_${Date.now()}`;
    await admin(url, (client) => client.query(`CREATE ROLE ${role} LOGIN CONNECTION LIMIT 0`));
    const store = openPostgresStore({ connectionString: as(url, role), maxConnections: 2 });
    const failure = await store.ready().catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: "unavailable" });
    expect((failure as { why?: string }).why).toContain("too many connections");
    await store.close();
  });

  it("a lock wait past lock_timeout (55P03): `unavailable`, not the driver's error", async () => {
    const url = await postgres.createDatabase();
    // New sessions of this database give up a lock wait after 200 ms.
    const name = new URL(url).pathname.slice(1);
    await admin(url, (client) => client.query(`ALTER DATABASE ${name} SET lock_timeout = '200ms'`));
    const store = await postgres.open({ url });
    const meta = await store.createTranscript(NEW);
    await admin(url, async (holder) => {
      await holder.query("BEGIN");
      await holder.query("SELECT 1 FROM transcripts WHERE id = $1 FOR UPDATE", [meta.id]);
      const failure = await store.renameTranscript(meta.id, "renamed").catch((e: unknown) => e);
      await holder.query("ROLLBACK");
      expect(failure).toMatchObject({ code: "unavailable" });
      expect((failure as { why?: string }).why).toContain("lock wait");
    });
    // Once the lock is gone, the same call goes through.
    expect((await store.renameTranscript(meta.id, "renamed"))?.title).toBe("renamed");
    await store.close();
  });
});
