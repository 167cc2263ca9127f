import type { RunInfo, Store, StoredRecord } from "../store";
import { coalescedRead } from "./coalesced-read";
import { runRegistry } from "./run-registry";
import { sseStream } from "./sse";

/** The headers of every run stream (docs/http-api.md). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  "x-accel-buffering": "no",
};

/** How long, at least, a count ahead of another instance's stored records is waited for. */
const AHEAD_WAIT_MS = 2000;

export type RunEventsAnswer =
  | { ok: true; transcriptId: string; body: ReadableStream<Uint8Array> }
  | { ok: false; status: 400 | 404; error: string };

/**
 * `GET /api/runs/:runId/events?after=N` (docs/live-runs.md): the `run` record, then the run's records
 * from the N-th on (0 = all), then live ones until it ends. A run in progress is served from
 * the registry's frames — this instance's own, or another instance's followed through the
 * store (`RunTail`); a finished one from the store, so the URL keeps working. A deleted
 * transcript's runs are 404 like its other URLs, even one still winding down (one look-up of
 * the transcript per request; requests that arrive together share one, `coalescedRead`), and a
 * stream open here when it is deleted ends at once with `{ "kind": "deleted" }`
 * (`RunRegistry.endViewersOf`).
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
  const local = registry.get(runId);
  const reads = sharedReads(store);
  const info = local === undefined ? await reads.runInfo(runId) : null;
  const transcriptId = local?.transcriptId ?? info?.transcriptId;
  if (transcriptId === undefined) return noRun(runId, "");
  if (!(await reads.transcriptShown(transcriptId)))
    return noRun(runId, " (its transcript was deleted)");
  if (local !== undefined) {
    if (after > local.frameCount) return tooFar(after, local.frameCount);
    return { ok: true, transcriptId, body: local.attach(after) };
  }
  // Another instance's run is followed only while the store has it unfinished.
  if (info?.endedAt === null) {
    // Its viewers get records before they are stored, so one that comes here with them may be
    // ahead of what the store has: that count is waited for (a few polls) before a 400.
    const waitMs = Math.max(AHEAD_WAIT_MS, 10 * registry.pollMs);
    const followed = await registry.attachFollowed(store, runId, after, waitMs);
    if (followed?.ok === true) return { ok: true, transcriptId, body: followed.stream };
    if (followed?.ok === false) return tooFar(after, followed.records);
    // It ended meanwhile: the store has every record.
  }
  const records = await store.listRunRecords(transcriptId, runId, 0);
  if (after > records.length) return tooFar(after, records.length);
  const header = { kind: "run", transcriptId, runId };
  const body = sseStream([header, ...records.slice(after).map(plain)]);
  return { ok: true, transcriptId, body };
}

function noRun(runId: string, why: string): RunEventsAnswer {
  return { ok: false, status: 404, error: noRunMessage(runId, why) };
}

/**
 * The 404's words for a run id (the events and stop routes): quoted cut short, since an id is
 * 36 characters and the answer need not echo kilobytes; `why` as " (its transcript was deleted)".
 */
export function noRunMessage(runId: string, why = ""): string {
  return `runId: no run ${JSON.stringify(runId.slice(0, 64))}${why}.`;
}

interface SharedReads {
  runInfo(runId: string): Promise<RunInfo | null>;
  /** Whether the transcript is there, not deleted: its meta alone (a page of no records). */
  transcriptShown(transcriptId: string): Promise<boolean>;
}

const readsOf = new WeakMap<Store, SharedReads>();

/** The store's look-ups of every viewer at once, one call per key in flight (`coalescedRead`). */
function sharedReads(store: Store): SharedReads {
  let reads = readsOf.get(store);
  if (reads === undefined) {
    reads = {
      runInfo: coalescedRead((runId) => store.getRunInfo(runId)),
      transcriptShown: coalescedRead(
        async (id) => (await store.readRecords(id, { before: 1, limit: 1 })) !== null,
      ),
    };
    readsOf.set(store, reads);
  }
  return reads;
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
