import type { Store, StoredRecord } from "../store";
import { runRegistry } from "./run-registry";
import { sseRecord } from "./sse";

/** The headers of every run stream (spec §9). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

export type RunEventsAnswer =
  | { ok: true; transcriptId: string; body: ReadableStream<Uint8Array> }
  | { ok: false; status: 400 | 404; error: string };

/**
 * `GET /api/runs/:runId/events?after=N` (spec §10): the `run` record, then the run's records
 * from the N-th on (0 = all), then live ones until it ends. A run in progress is served from
 * the registry's frames — this instance's own, or another instance's followed through the
 * store (`RunTail`); a finished one from the store, so the URL keeps working.
 */
export async function runEvents(
  runId: string,
  afterText: string | null,
  store: Store,
): Promise<RunEventsAnswer> {
  const after = parseAfter(afterText);
  if (after === null) {
    return {
      ok: false,
      status: 400,
      error: "after: must be a whole number of records you already have (0 = all).",
    };
  }
  const registry = runRegistry();
  const live = await registry.follow(store, runId);
  if (live !== null) {
    // Another instance's run: its viewers get records before they are stored, so one that
    // comes here with them may be ahead of what was read so far.
    if (after > live.frameCount && registry.get(runId) === undefined) await registry.catchUp(runId);
    if (after > live.frameCount) return tooFar(after, live.frameCount);
    return { ok: true, transcriptId: live.transcriptId, body: live.attach(after) };
  }
  const info = await store.getRunInfo(runId);
  if (info === null) return { ok: false, status: 404, error: `runId: no run "${runId}".` };
  const records = await store.listRunRecords(info.transcriptId, runId, 0);
  if (after > records.length) return tooFar(after, records.length);
  const header = { kind: "run", transcriptId: info.transcriptId, runId };
  const frames = [header, ...records.slice(after).map(plain)].map(sseRecord);
  const body = new ReadableStream<Uint8Array>({
    start(stream) {
      for (const frame of frames) stream.enqueue(frame);
      stream.close();
    },
  });
  return { ok: true, transcriptId: info.transcriptId, body };
}

function parseAfter(text: string | null): number | null {
  if (text === null || text === "") return 0;
  if (!/^\d{1,15}$/.test(text)) return null;
  return Number(text);
}

function tooFar(after: number, count: number): RunEventsAnswer {
  return {
    ok: false,
    status: 400,
    error: `after: ${after} is more than the run's ${count} records.`,
  };
}

/** A stored record as it was streamed: without the store's `seq` and `runId`. */
function plain({ seq: _seq, runId: _runId, ...record }: StoredRecord) {
  return record;
}
