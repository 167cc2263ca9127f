"use client";

import {
  ALL_RECORDS_PAGE,
  type FetchRecords,
  foldInSlices,
  OLDER_RECORDS,
  type PageResult,
  readBackward,
  readForward,
  startsAtFirst,
  TAIL_RECORDS,
  tailPath,
} from "@/lib/client/record-pages";
import type { StoredRecord } from "@/lib/store/store";
import { type OpenTranscript, type PlaygroundState, usePlayground } from "./playground-store";

/** One page of a transcript's records (`GET /api/transcripts/:id?limit=…`, docs/http-api.md). */
type PageReply = Omit<OpenTranscript, "records" | "recordCount"> & {
  records: StoredRecord[];
  recordCount: number;
};

function fetchPage(
  id: string,
  query: Record<string, string | number | undefined>,
): Promise<PageResult<PageReply>> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined) params.set(name, String(value));
  return fetchReply(`/api/transcripts/${encodeURIComponent(id)}?${params}`);
}

async function fetchReply(url: string): Promise<PageResult<PageReply>> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `The connection to the server failed: ${message}` };
  }
  const body = (await response.json().catch(() => null)) as (PageReply & { error?: string }) | null;
  if (!response.ok || body === null)
    return { ok: false, error: body?.error ?? `The server answered ${response.status}.` };
  return { ok: true, value: body };
}

/** Reads pages of transcript `id`'s records from the server (replay reads a long one so). */
export const pagesOf =
  (id: string): FetchRecords =>
  (query) =>
    fetchPage(id, { ...query });

/**
 * A transcript as the page opens it: its meta and its last records, from a whole model turn
 * on (about `TAIL_RECORDS`). A 50,000-event transcript is ~120,000 records and 22 MB; the
 * newest cards paint from the tail, and older records load as the user scrolls up.
 */
export async function readTranscriptTail(id: string): Promise<PageResult<OpenTranscript>> {
  // `tailPath`: the URL the page's HTML preloads (app/t/[id]), so this read is often done.
  const first = await fetchReply(tailPath(id));
  if (!first.ok) return first;
  const { records, recordCount, ...rest } = first.value;
  let window = records;
  if (!startsAtFirst(records)) {
    // The page may begin inside a turn: read back to a whole one (usually no more requests).
    const more = await readBackward(
      async (query) =>
        query.before === undefined ? { ok: true, value: first.value } : pagesOf(id)(query),
      undefined,
      TAIL_RECORDS,
    );
    if (!more.ok) return more;
    window = more.value.records;
  }
  return { ok: true, value: { ...rest, records: window, recordCount } };
}

const yieldToPage = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const busy = (state: PlaygroundState) =>
  state.status === "running" || state.status === "stopping" || state.replaying;

let pending: { promise: Promise<boolean>; all: boolean } | null = null;

/**
 * Reads the open transcript's records before those loaded (a page, or with `all` every one),
 * folds them with the loaded ones into a new log in slices (the main thread stays free), and
 * shows it. Resolves true when the whole transcript is loaded. Not while a run or a replay
 * shows: their log holds more than the stored records.
 */
export function loadOlder(all = false): Promise<boolean> {
  if (pending !== null) {
    const { promise } = pending;
    return pending.all || !all ? promise : promise.then(() => loadOlder(true));
  }
  const promise = read(all).finally(() => {
    pending = null;
  });
  pending = { promise, all };
  return promise;
}

/** Every record of the open transcript, for re-runs and following a run (replay reads on its own). */
export const loadAll = () => loadOlder(true);

/** True when the open transcript's records are all loaded (or none is open). */
export function isWhole(transcript: OpenTranscript | null): boolean {
  return transcript === null || startsAtFirst(transcript.records);
}

async function read(all: boolean): Promise<boolean> {
  const state = usePlayground.getState();
  const transcript = state.transcript;
  if (transcript === null || startsAtFirst(transcript.records)) return true;
  if (busy(state)) return false;
  const id = transcript.meta.id;
  state.setOlderLoading(true);
  try {
    let older: StoredRecord[] = [];
    let before = transcript.records[0]?.seq;
    do {
      const page = await readBackward(pagesOf(id), before, all ? ALL_RECORDS_PAGE : OLDER_RECORDS);
      if (!page.ok) {
        usePlayground.getState().notify({ text: page.error, tone: "danger" });
        return false;
      }
      if (page.value.records.length === 0) break;
      older = page.value.records.concat(older);
      before = older[0]?.seq;
      if (usePlayground.getState().transcript !== transcript) return false;
    } while (all && !startsAtFirst(older));
    const records = older.concat(transcript.records);
    const log = await foldInSlices(id, records, yieldToPage);
    const now = usePlayground.getState();
    if (now.transcript !== transcript || busy(now)) return false;
    now.showOlder({ ...transcript, records }, log);
    return startsAtFirst(records);
  } finally {
    usePlayground.getState().setOlderLoading(false);
  }
}

/**
 * Shows the records stored after those `opened` holds, if any: the page reads a transcript's
 * tail and the list of live runs at the same time, so a run that ended between the two reads
 * may have added records the tail lacks. Usually one read that finds nothing. Not once the
 * page shows something else (another transcript, a run, a replay) or has read on itself.
 */
export async function catchUp(opened: OpenTranscript): Promise<void> {
  const after = opened.records.at(-1)?.seq ?? 0;
  const rest = await readForward(pagesOf(opened.meta.id), after, ALL_RECORDS_PAGE);
  if (!rest.ok || rest.value.records.length === 0) return;
  const now = usePlayground.getState();
  // Older records may have been put in front meanwhile: the same transcript, the same end.
  const shown = now.transcript;
  if (shown === null || shown.meta.id !== opened.meta.id || busy(now)) return;
  if (now.transcriptId !== opened.meta.id || shown.records.at(-1)?.seq !== after) return;
  now.setTranscript({
    ...shown,
    records: shown.records.concat(rest.value.records),
    recordCount: rest.value.recordCount,
  });
  usePlayground.getState().showRecords(rest.value.records, false, false);
}

/**
 * After a run: the stored copy gains the records the run added (read after the last loaded
 * `seq`, so the loaded window stays whole); a conversation not open before is read whole,
 * like the log the run built.
 */
export async function refreshTranscript(id: string): Promise<void> {
  const state = usePlayground.getState();
  const open = state.transcript?.meta.id === id ? state.transcript : null;
  const after = open?.records.at(-1)?.seq ?? 0;
  const head = await fetchPage(id, { limit: 1, from: "end" });
  if (!head.ok) return;
  const rest = await readForward(pagesOf(id), after, ALL_RECORDS_PAGE);
  if (!rest.ok) return;
  const now = usePlayground.getState();
  if (now.transcriptId !== id || now.transcript !== state.transcript) return;
  const { records: _, recordCount, ...meta } = head.value;
  now.setTranscript({
    ...meta,
    records: open === null ? rest.value.records : open.records.concat(rest.value.records),
    recordCount,
  });
}
