/**
 * `npx tsx bench/postgres-walk.ts [turns]`: a paged walk (`readRecordPages`, pages of 500: what
 * exports and the page's older records read) of one long conversation on a throwaway local
 * PostgreSQL cluster (`startCluster`, fsync off). Each turn stores a request repeating the
 * context so far plus two new messages of ~1 KB, and 30 chunks; 300 turns by default (9,300
 * records, requests of up to 601 messages). Prints the walk's time, three walks. Needs
 * PostgreSQL installed (`initdb`); figures are printed, never asserted.
 */
import { startCluster } from "../lib/store/postgres-cluster";
import { openPostgresStore } from "../lib/store/postgres-store";
import { loadAverage } from "./table";

const turns = Number(process.argv[2] ?? 300);

async function main(): Promise<void> {
  const cluster = await startCluster({ durable: false });
  try {
    const store = openPostgresStore({ connectionString: await cluster.createDatabase() });
    const meta = await store.createTranscript({
      title: "long",
      dialect: "xml",
      model: { provider: "demo", id: "scripted" },
    });
    const messages = [{ role: "system", content: "S" }];
    for (let turn = 0; turn < turns; turn++) {
      messages.push({ role: "user", content: `question ${turn} ${"x".repeat(1000)}` });
      messages.push({ role: "assistant", content: `answer ${turn} ${"y".repeat(1000)}` });
      const request = {
        kind: "request" as const,
        turn,
        t: 0,
        provider: "demo",
        model: "scripted",
        messages: [...messages],
        settings: {},
      };
      const chunks = Array.from({ length: 30 }, (_, index) => ({
        kind: "chunk" as const,
        turn,
        t: index,
        text: `piece ${index} `,
      }));
      await store.appendRecords(meta.id, `run-${turn}`, [request, ...chunks]);
    }
    for (let round = 0; round < 3; round++) {
      const began = performance.now();
      let count = 0;
      for await (const page of store.readRecordPages(meta.id, { pageSize: 500 }))
        count += page.length;
      console.log(
        `paged walk of ${count} records (${turns} requests of up to ${2 * turns + 1} messages): ${(performance.now() - began).toFixed(0)} ms`,
      );
    }
    console.log(`load average ${loadAverage()}`);
    await store.close();
  } finally {
    cluster.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
