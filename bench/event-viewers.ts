/**
 * `npx tsx bench/event-viewers.ts [viewers]`: that many viewers (1,000 by default) open one
 * live run's events at once (`runEvents`, what `GET /api/runs/:runId/events` answers), on a
 * throwaway local PostgreSQL cluster with the server's pool of 10 connections. Prints the store
 * look-ups they made (each used to make its own: a pool of 10 waited on 1,000), the wall and
 * CPU time, three rounds. Needs PostgreSQL installed (`initdb`); figures are printed, never
 * asserted.
 */
import { runEvents } from "../lib/server/run-events";
import { runRegistry } from "../lib/server/run-registry";
import type { Store } from "../lib/store";
import { startCluster } from "../lib/store/postgres-cluster";
import { openPostgresStore } from "../lib/store/postgres-store";
import { loadAverage } from "./table";

const viewers = Number(process.argv[2] ?? 1000);

/** The store with its look-ups (`readRecords`, `getRunInfo`) counted. */
function counted(store: Store): { store: Store; calls: () => number; reset: () => void } {
  let calls = 0;
  const wrapped = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== "readRecords" && property !== "getRunInfo") return value;
      return (...args: unknown[]) => {
        calls += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return {
    store: wrapped,
    calls: () => calls,
    reset: () => {
      calls = 0;
    },
  };
}

async function main(): Promise<void> {
  const cluster = await startCluster({ durable: false });
  try {
    const store = openPostgresStore({
      connectionString: await cluster.createDatabase(),
      maxConnections: 10,
    });
    await store.ready();
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "x" },
    });
    const run = await runRegistry().open({
      store,
      transcriptId: meta.id,
      controller: new AbortController(),
    });
    const looked = counted(store);
    console.log(`${viewers} viewers of one live run at once (${loadAverage()})`);
    for (let round = 1; round <= 3; round++) {
      looked.reset();
      const cpuBefore = process.cpuUsage();
      const start = performance.now();
      const answers = await Promise.allSettled(
        Array.from({ length: viewers }, () => runEvents(run.runId, "0", looked.store)),
      );
      const wall = performance.now() - start;
      const cpu = process.cpuUsage(cpuBefore);
      let ok = 0;
      for (const answer of answers) {
        if (answer.status !== "fulfilled" || !answer.value.ok) continue;
        ok += 1;
        await answer.value.body.cancel();
      }
      console.log(
        `round ${round}: ${ok}/${viewers} streams, ${looked.calls()} store look-ups, wall ${wall.toFixed(0)} ms, CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms`,
      );
    }
    await runRegistry().finish(run, store);
    await store.close();
  } finally {
    cluster.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
