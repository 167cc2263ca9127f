/**
 * Test helper for `sqlite-store.test.ts`: appends batches of records to one transcript
 * forever, printing the last seq of every committed batch, until the test kills it.
 * Usage: node --import tsx sqlite-crash-child.ts <db path> <transcript id>
 */
import { openSqliteStore } from "./sqlite-store";
import type { TranscriptRecord } from "./store";

export const CRASH_BATCH = 5;

async function main(): Promise<void> {
  const [path, transcriptId] = process.argv.slice(2);
  if (path === undefined || transcriptId === undefined) {
    throw new Error("Usage: sqlite-crash-child.ts <db path> <transcript id>");
  }
  const store = openSqliteStore({ path });
  const filler = "x".repeat(2000);
  for (let batch = 0; ; batch++) {
    const records = Array.from(
      { length: CRASH_BATCH },
      (_, index): TranscriptRecord => ({
        kind: "chunk",
        turn: batch,
        t: index,
        text: `${batch}:${index}:${filler}`,
      }),
    );
    const stored = await store.appendRecords(transcriptId, "crash-run", records);
    process.stdout.write(`${stored.at(-1)?.seq}\n`);
  }
}

if (process.argv[1]?.endsWith("sqlite-crash-child.ts")) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
