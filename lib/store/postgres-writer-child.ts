/**
 * Test helper for `postgres-store.test.ts`: another process appending to one transcript, in
 * batches of `WRITER_BATCH` records, printing the last seq of every committed batch. It stops
 * after `batches` batches, or (0) runs until the test kills it.
 * Usage: node --import tsx postgres-writer-child.ts <url> <transcript id> <run id> <batches>
 */
import { openPostgresStore } from "./postgres-store";
import type { TranscriptRecord } from "./store";

export const WRITER_BATCH = 5;

async function main(): Promise<void> {
  const [url, transcriptId, runId, count] = process.argv.slice(2);
  if (url === undefined || transcriptId === undefined || runId === undefined) {
    throw new Error("Usage: postgres-writer-child.ts <url> <transcript id> <run id> <batches>");
  }
  const batches = Number(count ?? 0);
  const store = openPostgresStore({ connectionString: url, maxConnections: 2 });
  const filler = "x".repeat(500);
  for (let batch = 0; batches === 0 || batch < batches; batch++) {
    const records = Array.from(
      { length: WRITER_BATCH },
      (_, index): TranscriptRecord => ({
        kind: "chunk",
        turn: batch,
        t: index,
        text: `${runId}:${batch}:${index}:${filler}`,
      }),
    );
    const stored = await store.appendRecords(transcriptId, runId, records);
    process.stdout.write(`${stored.at(-1)?.seq}\n`);
  }
  await store.close();
}

if (process.argv[1]?.endsWith("postgres-writer-child.ts")) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
