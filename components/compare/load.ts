import type { TranscriptRecord } from "@/lib/protocol";
import type { TranscriptMeta } from "@/lib/store/store";

export interface LoadedTranscript {
  meta: TranscriptMeta;
  records: TranscriptRecord[];
}

export type LoadResult = { ok: true; value: LoadedTranscript } | { ok: false; error: string };

/** Records per request: a page the server reads and sends quickly. */
export const PAGE = 5_000;

/** The URL of a transcript's first page of records (the page preloads it). */
export function firstPageUrl(id: string): string {
  return pageUrl(id, 0);
}

function pageUrl(id: string, after: number): string {
  return `/api/transcripts/${encodeURIComponent(id)}?limit=${PAGE}&after=${after}`;
}

/**
 * A transcript's records through the paged API (`GET /api/transcripts/:id?limit=&after=`,
 * docs/http-api.md): one bounded page at a time, never one huge read. `onProgress` gets the
 * records so far and the total.
 */
export async function loadTranscript(
  id: string,
  signal: AbortSignal,
  onProgress?: (loaded: number, total: number) => void,
): Promise<LoadResult> {
  const records: TranscriptRecord[] = [];
  let meta: TranscriptMeta | undefined;
  let after = 0;
  for (;;) {
    const url = pageUrl(id, after);
    let response: Response;
    try {
      response = await fetch(url, { signal });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, error: `The connection to the server failed: ${message}` };
    }
    const body = (await response.json().catch(() => null)) as {
      meta?: TranscriptMeta;
      records?: (TranscriptRecord & { seq: number })[];
      recordCount?: number;
      error?: string;
    } | null;
    if (!response.ok || body?.meta === undefined || body.records === undefined)
      return { ok: false, error: body?.error ?? `The server answered ${response.status}.` };
    meta = body.meta;
    for (const { seq: _seq, runId: _runId, ...record } of body.records as (TranscriptRecord & {
      seq: number;
      runId?: string;
    })[])
      records.push(record as TranscriptRecord);
    const last = body.records.at(-1)?.seq;
    const total = body.recordCount ?? 0;
    onProgress?.(records.length, total);
    if (last === undefined || last >= total || body.records.length < PAGE)
      return { ok: true, value: { meta, records } };
    after = last;
  }
}
