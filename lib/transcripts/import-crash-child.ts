/**
 * Test helper for `import-crash.test.ts`: an import (`importJsonlStream`) of a file that never
 * ends, into a SQLite file, as instance `<instance id>` with a lease until `<lease until>`,
 * until the test kills the process. Prints `appended <transcript id> <last seq>` after every
 * batch the store has committed.
 * Usage: node --import tsx import-crash-child.ts <db path> <instance id> <lease until>
 */
import { openSqliteStore, type Store } from "../store";
import { headerOf } from "./header";
import { importJsonlStream } from "./jsonl-import";
import { sampleTranscript } from "./testing";

async function main(): Promise<void> {
  const [path, instanceId, leaseUntil] = process.argv.slice(2);
  if (path === undefined || instanceId === undefined || leaseUntil === undefined) {
    throw new Error("Usage: import-crash-child.ts <db path> <instance id> <lease until>");
  }
  const sqlite = openSqliteStore({ path });
  await sqlite.renewLease(instanceId, Number(leaseUntil));
  const store: Store = {
    ...sqlite,
    async appendRecords(transcriptId, runId, records) {
      const stored = await sqlite.appendRecords(transcriptId, runId, records);
      process.stdout.write(`appended ${transcriptId} ${stored.at(-1)?.seq}\n`);
      return stored;
    },
  };
  const { meta } = sampleTranscript();
  const encoder = new TextEncoder();
  let line = 0;
  // A header, then user messages for ever: the import never reaches its end.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const lines =
        line++ === 0
          ? [JSON.stringify(headerOf({ ...meta, title: "cut off" }))]
          : Array.from({ length: 100 }, (_, index) =>
              JSON.stringify({
                kind: "event",
                event: { type: "user", id: `u${line}-${index}`, timestamp: 0, content: "more" },
              }),
            );
      controller.enqueue(encoder.encode(`${lines.join("\n")}\n`));
    },
  });
  await importJsonlStream(store, body, {}, { instanceId });
}

if (process.argv[1]?.endsWith("import-crash-child.ts")) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
