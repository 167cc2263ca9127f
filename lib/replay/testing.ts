/**
 * Test helpers: real recorded runs, made by the server's `startRun` with the offline demo
 * model into a memory store, so replay tests compare against what a live run wrote. Not used
 * by product code.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readRunStream } from "../client/run-stream";
import type { Dialect, ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { readConfig } from "../server/config";
import { type RunRequest, startRun } from "../server/runs";
import { createMemoryStore, type Store, type Transcript } from "../store";

export interface RecordedRun {
  store: Store;
  transcript: Transcript;
  records: TranscriptRecord[];
}

/** Runs `message` with the demo model (no pacing) and returns what the store holds. */
export async function recordRun(
  request: Omit<RunRequest, "dialect"> & { dialect: Dialect },
  store: Store = createMemoryStore(),
): Promise<RecordedRun> {
  const config = readConfig({
    WIRESCOPE_DATA_DIR: mkdtempSync(join(tmpdir(), "wirescope-replay-")),
    WIRESCOPE_DEMO_PACE_MS: "0",
  });
  const { body, transcriptId } = await startRun(request, { store, config });
  for await (const _record of readRunStream(body)) {
    // Drain: the stream closes after the last record is stored.
  }
  const transcript = await store.getTranscript(transcriptId);
  if (transcript === null) throw new Error(`Transcript ${transcriptId} was not stored.`);
  const records = transcript.records.map(({ seq: _seq, runId: _runId, ...record }) => record);
  return { store, transcript, records };
}

/** Records with event timestamps removed: replayed parser events get the replay clock's time. */
export function withoutTimestamps(records: readonly TranscriptRecord[]): unknown[] {
  return records.map((record) =>
    record.kind === "event" ? { ...record, event: untimed(record.event) } : record,
  );
}

function untimed(event: ProtocolEvent): Omit<ProtocolEvent, "timestamp"> {
  const { timestamp: _timestamp, ...rest } = event;
  return rest;
}
