import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { type RunStreamRecord, readRunStream } from "../lib/client/run-stream";
import {
  type FakeProviderServer,
  startFakeProviderServer,
} from "../lib/providers/testing/fake-provider-server";
import {
  type PostgresCluster,
  postgresSkipReason,
  startCluster,
} from "../lib/store/postgres-cluster";

/**
 * Several instances on one database (issue 17): two real `next start` processes of the one
 * build, on one SQLite file, then on one PostgreSQL database (a throwaway cluster; skipped with
 * a message where PostgreSQL is not installed). A run on A is followed, listed, refused a second run and stopped
 * through B, a call captured by A's proxy too; a conversation raced from both gets one run; A
 * frozen (SIGSTOP) past its lease has its run taken over by B and, woken, writes nothing more
 * to it; A killed with SIGKILL has its run marked crashed by B once A's lease ends, not before.
 * No browser: plain HTTP clients (and a fake upstream for the capture proxy).
 */

const BASE_PORT = Number(process.env.WIRESCOPE_E2E_PORT ?? 3100) + 6;
const LEASE_MS = 4000;
const servers = new Map<number, ChildProcess>();
/** The upstream both servers' capture proxies forward `openai` calls to. */
let upstream: FakeProviderServer;

test.beforeAll(async () => {
  upstream = await startFakeProviderServer({ chunkChars: 5 });
});
test.afterAll(async () => {
  await upstream.close();
});

function startServer(port: number, dataDir: string, databaseUrl?: string): ChildProcess {
  const child = spawn(
    process.execPath,
    ["node_modules/next/dist/bin/next", "start", "-H", "127.0.0.1", "-p", String(port)],
    {
      env: {
        ...process.env,
        NEXT_TELEMETRY_DISABLED: "1",
        WIRESCOPE_DATA_DIR: dataDir,
        WIRESCOPE_LEASE_MS: String(LEASE_MS),
        WIRESCOPE_POLL_MS: "50",
        OPENAI_BASE_URL: `${upstream.url}/v1`,
        ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
      },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  servers.set(port, child);
  return child;
}

const url = (port: number, path: string) => `http://127.0.0.1:${port}${path}`;

async function waitUntilUp(port: number): Promise<void> {
  for (;;) {
    try {
      if ((await fetch(url(port, "/api/runs?active=1"))).ok) return;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A slow demo run (60 ms between pieces: about 6 s), on a new or a given conversation. */
function startRun(port: number, transcriptId?: string, paceMs = 60): Promise<Response> {
  return fetch(url(port, "/api/runs"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      message: "demo: parallel batch",
      dialect: "xml",
      model: { provider: "demo", settings: { paceMs } },
      ...(transcriptId === undefined ? {} : { transcriptId }),
    }),
  });
}

async function readAll(response: Response): Promise<RunStreamRecord[]> {
  const records: RunStreamRecord[] = [];
  for await (const record of readRunStream(response.body as ReadableStream<Uint8Array>))
    records.push(record);
  return records;
}

async function activeRunIds(port: number): Promise<string[]> {
  const { runs } = (await (await fetch(url(port, "/api/runs?active=1"))).json()) as {
    runs: { runId: string }[];
  };
  return runs.map((run) => run.runId);
}

const lastEvent = (records: RunStreamRecord[]) => {
  const last = records.at(-1);
  return last?.kind === "event" ? last.event : undefined;
};

for (const backend of ["SQLite", "PostgreSQL"] as const)
  test.describe
    .serial(`two instances on one ${backend} database`, () => {
      const PORT_A = BASE_PORT + (backend === "SQLite" ? 0 : 2);
      const PORT_B = PORT_A + 1;
      const dataDir = mkdtempSync(join(tmpdir(), "wirescope-instances-"));
      let cluster: PostgresCluster | undefined;
      test.setTimeout(120_000);

      test.beforeAll(async () => {
        test.setTimeout(180_000);
        const skip = backend === "PostgreSQL" ? postgresSkipReason() : undefined;
        test.skip(skip !== undefined, skip);
        let databaseUrl: string | undefined;
        if (backend === "PostgreSQL") {
          cluster = await startCluster();
          databaseUrl = await cluster.createDatabase();
        }
        startServer(PORT_A, dataDir, databaseUrl);
        startServer(PORT_B, dataDir, databaseUrl);
        await Promise.all([waitUntilUp(PORT_A), waitUntilUp(PORT_B)]);
      });

      test.afterAll(() => {
        for (const port of [PORT_A, PORT_B]) servers.get(port)?.kill("SIGKILL");
        cluster?.stop();
        rmSync(dataDir, { recursive: true, force: true });
      });

      test("B follows A's run record by record, resumes from a count, lists it, refuses a second run and races to one winner", async () => {
        const response = await startRun(PORT_A);
        expect(response.status).toBe(200);
        const runId = response.headers.get("x-run-id") ?? "";
        const transcriptId = response.headers.get("x-transcript-id") ?? "";
        const onA = readAll(response);
        expect(await activeRunIds(PORT_B)).toContain(runId);
        // The one-run rule holds across instances: B refuses a second run in A's conversation.
        const refused = await startRun(PORT_B, transcriptId);
        expect(refused.status).toBe(409);
        expect(((await refused.json()) as { error: string }).error).toMatch(/^transcriptId: /);

        // A viewer on B reads a few records, goes away, and comes back with its count.
        const first = await fetch(url(PORT_B, `/api/runs/${runId}/events?after=0`));
        expect(first.status).toBe(200);
        expect(first.headers.get("x-transcript-id")).toBe(transcriptId);
        const seen: RunStreamRecord[] = [];
        const reader = readRunStream(first.body as ReadableStream<Uint8Array>);
        while (seen.length < 6) {
          const next = await reader.next();
          if (next.done) throw new Error("B's stream ended early");
          seen.push(next.value);
        }
        await reader.return(undefined);
        const count = seen.length - 1;
        const rest = await readAll(
          await fetch(url(PORT_B, `/api/runs/${runId}/events?after=${count}`)),
        );
        const recordsOnA = (await onA).slice(1);
        const recordsOnB = [...seen.slice(1), ...rest.slice(1)];
        expect(recordsOnA.length).toBeGreaterThan(20);
        expect(lastEvent(recordsOnA)?.type).not.toBe("interrupt");
        expect(recordsOnB).toEqual(recordsOnA);
        // What the store holds, served by B now that the run has ended: the same records.
        const stored = await readAll(await fetch(url(PORT_B, `/api/runs/${runId}/events?after=0`)));
        expect(stored.slice(1)).toEqual(recordsOnA);
        expect(await activeRunIds(PORT_B)).not.toContain(runId);

        // Both instances asked at once to go on in the conversation: exactly one run starts.
        const raced = await Promise.all([
          startRun(PORT_A, transcriptId),
          startRun(PORT_B, transcriptId),
        ]);
        expect(raced.map((answer) => answer.status).sort()).toEqual([200, 409]);
        const winner = raced.find((answer) => answer.status === 200) as Response;
        expect(lastEvent(await readAll(winner))?.type).not.toBe("interrupt");
      });

      test("a stop sent to B stops A's run; A alive past its lease is never marked crashed", async () => {
        const response = await startRun(PORT_A, undefined, 150);
        const runId = response.headers.get("x-run-id") ?? "";
        const onA = readAll(response);
        // Longer than a lease while B renews its own and sweeps for dead instances.
        await new Promise((resolve) => setTimeout(resolve, LEASE_MS * 1.5));
        const stop = await fetch(url(PORT_B, `/api/runs/${runId}/stop`), { method: "POST" });
        expect(stop.status).toBe(200);
        expect(await stop.json()).toEqual({ stopped: runId });
        const records = await onA;
        expect(lastEvent(records)).toMatchObject({ type: "interrupt", reason: "user" });
        const unknown = await fetch(url(PORT_B, "/api/runs/no-such-run/stop"), { method: "POST" });
        expect(unknown.status).toBe(404);
      });

      test("a call captured by A's proxy is stopped from B: the agent's answer breaks off, the turn ends with interrupt (user)", async () => {
        const before = new Set(await activeRunIds(PORT_B));
        const call = await fetch(url(PORT_A, "/proxy/openai/v1/chat/completions"), {
          method: "POST",
          // A named dialect: the turn is a run from its first delta.
          headers: { "content-type": "application/json", "x-wirescope-dialect": "xml" },
          body: JSON.stringify({
            model: "stall",
            stream: true,
            messages: [{ role: "user", content: "list the files" }],
          }),
        });
        expect(call.status).toBe(200);
        const agent = (call.body as ReadableStream<Uint8Array>).getReader();
        await agent.read();
        let runId: string | undefined;
        while (runId === undefined) {
          runId = (await activeRunIds(PORT_B)).find((id) => !before.has(id));
          if (runId === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const onB = readAll(await fetch(url(PORT_B, `/api/runs/${runId}/events?after=0`)));
        const stop = await fetch(url(PORT_B, `/api/runs/${runId}/stop`), { method: "POST" });
        expect(stop.status).toBe(200);
        expect(await stop.json()).toEqual({ stopped: runId });
        // The agent's answer breaks off (an error), never ends as if it were whole.
        const ending = await (async () => {
          try {
            while (!(await agent.read()).done) {}
            return "ended as if whole";
          } catch {
            return "broken off";
          }
        })();
        expect(ending).toBe("broken off");
        expect(lastEvent(await onB)).toMatchObject({ type: "interrupt", reason: "user" });
        expect(await activeRunIds(PORT_A)).not.toContain(runId);
      });

      test("A frozen past its lease (SIGSTOP): B takes its run over; A, woken, writes nothing more to it and tells its viewer", async () => {
        const paceMs = 300;
        const response = await startRun(PORT_A, undefined, paceMs);
        const runId = response.headers.get("x-run-id") ?? "";
        const reader = readRunStream(response.body as ReadableStream<Uint8Array>);
        const onA: RunStreamRecord[] = [];
        for (let read = 0; read < 4; read++) {
          const next = await reader.next();
          if (next.done) throw new Error("A's stream ended early");
          onA.push(next.value);
        }
        // Frozen between two records, once the last one's commit (10 ms later) is likely done:
        // a process frozen inside a write holds the database's lock (SQLite until it wakes;
        // PostgreSQL ends its session after 30 s idle in a transaction, then B goes on).
        await new Promise((resolve) => setTimeout(resolve, paceMs / 2));
        const a = servers.get(PORT_A) as ChildProcess;
        a.kill("SIGSTOP");
        let stored: RunStreamRecord[];
        try {
          // B marks the run crashed once A's lease has ended: B's stream of it then ends.
          stored = await readAll(await fetch(url(PORT_B, `/api/runs/${runId}/events?after=0`)));
          expect(lastEvent(stored)).toMatchObject({ type: "interrupt", reason: "crash" });
        } finally {
          a.kill("SIGCONT");
        }
        // A wakes: the run is no longer its own. Its viewer is told so, and the stream ends.
        for (;;) {
          const next = await reader.next();
          if (next.done) break;
          onA.push(next.value);
        }
        expect(lastEvent(onA)).toMatchObject({
          type: "error",
          code: "storage_failed",
          message: expect.stringMatching(/^Another instance took this run over/),
        });
        expect(await activeRunIds(PORT_A)).not.toContain(runId);
        // Nothing A wrote after waking landed: the store holds what B saw end with the crash.
        const after = await readAll(await fetch(url(PORT_A, `/api/runs/${runId}/events?after=0`)));
        expect(after).toEqual(stored);
        // A is alive and serves runs again.
        const next = await startRun(PORT_A, undefined, 1);
        expect(lastEvent(await readAll(next))?.type).not.toBe("interrupt");
      });

      test("A killed mid-run: B marks its run crashed once A's lease has ended, not before", async () => {
        const response = await startRun(PORT_A, undefined, 150);
        const runId = response.headers.get("x-run-id") ?? "";
        const reader = readRunStream(response.body as ReadableStream<Uint8Array>);
        for (let read = 0; read < 5; read++) await reader.next();
        servers.get(PORT_A)?.kill("SIGKILL");
        // Within A's lease the run is still A's: listed as in progress, not marked.
        expect(await activeRunIds(PORT_B)).toContain(runId);
        const onB = await readAll(await fetch(url(PORT_B, `/api/runs/${runId}/events?after=0`)));
        expect(lastEvent(onB)).toMatchObject({ type: "interrupt", reason: "crash" });
        expect(await activeRunIds(PORT_B)).not.toContain(runId);
      });
    });
