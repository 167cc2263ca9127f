/**
 * Test helper for `persistence.test.ts`: a server-side run (`startRun`, the demo model at a
 * slow pace) streaming into a SQLite file until the test kills the process. Prints
 * `transcript <id>` once, `committed <seq>` after every append the store has committed, and
 * `record <json>` for every record the stream delivered.
 * Usage: node --import tsx run-crash-child.ts <db path> <data dir>
 */
import { readRunStream } from "../client/run-stream";
import { readConfig } from "../server/config";
import { startRun } from "../server/runs";
import { openSqliteStore, type Store } from "../store";

async function main(): Promise<void> {
  const [path, dataDir] = process.argv.slice(2);
  if (path === undefined || dataDir === undefined) {
    throw new Error("Usage: run-crash-child.ts <db path> <data dir>");
  }
  const sqlite = openSqliteStore({ path });
  const store: Store = {
    ...sqlite,
    async appendRecords(transcriptId, runId, records) {
      const stored = await sqlite.appendRecords(transcriptId, runId, records);
      process.stdout.write(`committed ${stored.at(-1)?.seq}\n`);
      return stored;
    },
    // A run's records are committed in groups (`lib/server/record-writer.ts`).
    async appendRunRecords(batches) {
      const results = await sqlite.appendRunRecords(batches);
      const last = results.findLast((result) => result.ok);
      if (last?.ok) process.stdout.write(`committed ${last.lastSeq}\n`);
      return results;
    },
  };
  const config = readConfig({ WIRESCOPE_DATA_DIR: dataDir, WIRESCOPE_DEMO_PACE_MS: "25" });
  const { body, transcriptId } = await startRun(
    { message: "demo: dependencies", dialect: "xml" },
    { store, config },
  );
  process.stdout.write(`transcript ${transcriptId}\n`);
  for await (const record of readRunStream(body)) {
    if (record.kind !== "run") process.stdout.write(`record ${JSON.stringify(record)}\n`);
  }
  process.stdout.write("finished\n");
}

if (process.argv[1]?.endsWith("run-crash-child.ts")) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
