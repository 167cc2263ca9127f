import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { readConfig } from "../lib/server/config";
import { startRun } from "../lib/server/runs";
import { openSqliteStore, type Store } from "../lib/store";
import { groupByRun } from "../lib/transcripts/fork";
import { fileRecordOf } from "../lib/transcripts/header";
import { exportJsonl } from "../lib/transcripts/jsonl";
import { largeTranscript } from "../lib/transcripts/testing";

/** What the demo model is asked, in turn: tools, a scenario, plain text. */
const MESSAGES = [
  "list the files and read one",
  "calculate 12 * 7 + 3",
  "read notes/todo.md",
  "demo: parallel batch",
  "hello, what can you do?",
  "demo: dependencies",
];

export interface StorageRow {
  runs: number;
  /** Database file bytes after VACUUM: one conversation of `runs` runs. */
  oneConversationBytes: number;
  /** The same messages, each in a conversation of its own. */
  separateBytes: number;
  ratio: number;
  /** The conversation's JSONL export: every request inlined, as the store held it before. */
  exportBytes: number;
  /** Time to the first streamed record, mean over the first and the last 10 runs. */
  firstRecordMsEarly: number;
  firstRecordMsLate: number;
}

/**
 * Stored bytes of a `runs`-run conversation against the sum of `runs` one-run conversations
 * with the same messages (the demo model, no pacing, SQLite files in a temp directory).
 */
export async function storageGrowth(runs = 100): Promise<StorageRow> {
  const directory = mkdtempSync(join(tmpdir(), "wirescope-storage-bench-"));
  try {
    const config = { ...readConfig({}), dataDir: directory, demoPaceMs: 0 };
    const one = openSqliteStore({ path: join(directory, "one.db") });
    const latencies: number[] = [];
    let transcriptId: string | undefined;
    for (let index = 0; index < runs; index++) {
      const message = MESSAGES[index % MESSAGES.length] as string;
      const run = await runOnce(one, config, message, transcriptId);
      transcriptId = run.transcriptId;
      latencies.push(run.firstRecordMs);
    }
    const transcript = transcriptId === undefined ? null : await one.getTranscript(transcriptId);
    const exportBytes = transcript === null ? 0 : Buffer.byteLength(exportJsonl(transcript));
    await one.close();

    const separate = openSqliteStore({ path: join(directory, "separate.db") });
    for (let index = 0; index < runs; index++)
      await runOnce(separate, config, MESSAGES[index % MESSAGES.length] as string, undefined);
    await separate.close();

    const oneConversationBytes = vacuumedSize(join(directory, "one.db"));
    const separateBytes = vacuumedSize(join(directory, "separate.db"));
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    return {
      runs,
      oneConversationBytes,
      separateBytes,
      ratio: oneConversationBytes / separateBytes,
      exportBytes,
      firstRecordMsEarly: mean(latencies.slice(0, 10)),
      firstRecordMsLate: mean(latencies.slice(-10)),
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function runOnce(
  store: Store,
  config: ReturnType<typeof readConfig>,
  message: string,
  transcriptId: string | undefined,
): Promise<{ transcriptId: string; firstRecordMs: number }> {
  const began = performance.now();
  const run = await startRun(
    {
      message,
      dialect: "xml",
      model: { provider: "demo" },
      ...(transcriptId === undefined ? {} : { transcriptId }),
    },
    { store, config },
  );
  const reader = run.body.getReader();
  let firstRecordMs = Number.NaN;
  for (;;) {
    const { done } = await reader.read();
    if (Number.isNaN(firstRecordMs)) firstRecordMs = performance.now() - began;
    if (done) break;
  }
  return { transcriptId: run.transcriptId, firstRecordMs };
}

function vacuumedSize(path: string): number {
  const db = new Database(path);
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.exec("VACUUM");
  db.close();
  return statSync(path).size;
}

export interface ReadRow {
  events: number;
  records: number;
  /** `getTranscript`: what `GET /api/transcripts/:id` without `limit` reads. */
  wholeMs: number;
  wholeBytes: number;
  /** `readRecords({ limit: 500, from: "end" })`: the tail page the API serves. */
  tailMs: number;
  tailBytes: number;
  /** `getConversation`: what continuing the conversation reads. */
  conversationMs: number;
}

/** `largeTranscript(events)` with each response's text arriving as a chunk first, as in a run. */
export function streamedLargeTranscript(events: number): ReturnType<typeof largeTranscript> {
  const transcript = largeTranscript(events);
  transcript.records = transcript.records.flatMap((record) =>
    record.kind === "event" && record.event.type === "respond"
      ? [
          {
            kind: "chunk" as const,
            turn: 1,
            t: 0,
            text: record.event.content,
            seq: 0,
            runId: record.runId,
          },
          record,
        ]
      : [record],
  );
  return transcript;
}

/** Reading a long transcript back from SQLite: whole, its tail page, and the projection. */
export async function readFigures(events = 50_000): Promise<ReadRow> {
  const directory = mkdtempSync(join(tmpdir(), "wirescope-read-bench-"));
  try {
    const store = openSqliteStore({ path: join(directory, "read.db") });
    const transcript = streamedLargeTranscript(events);
    const meta = await store.createTranscript({
      dialect: "xml",
      model: { provider: "demo", id: "d" },
    });
    for (const group of groupByRun(transcript.records.map(fileRecordOf), "bench"))
      for (let at = 0; at < group.records.length; at += 1000)
        await store.appendRecords(meta.id, group.runId, group.records.slice(at, at + 1000));
    const time = async <T>(read: () => Promise<T>) => {
      await read();
      const start = performance.now();
      const value = await read();
      return { ms: performance.now() - start, value };
    };
    const whole = await time(() => store.getTranscript(meta.id));
    const tail = await time(() => store.readRecords(meta.id, { limit: 500, from: "end" }));
    const conversation = await time(() => store.getConversation(meta.id));
    await store.close();
    return {
      events: transcript.records.filter((record) => record.kind === "event").length,
      records: transcript.records.length,
      wholeMs: whole.ms,
      wholeBytes: Buffer.byteLength(JSON.stringify(whole.value)),
      tailMs: tail.ms,
      tailBytes: Buffer.byteLength(JSON.stringify(tail.value)),
      conversationMs: conversation.ms,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
