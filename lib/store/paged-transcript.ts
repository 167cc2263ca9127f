import type { Store, StoredRecord, Transcript, TranscriptMeta } from "./store";

/** Which records a walk covers: `after < seq ≤ through` (default: all of them). */
export interface WalkRange {
  after?: number;
  through?: number;
}

/**
 * A stored transcript read a page at a time: each `pages()` call walks its records again, up
 * to the last one there was when it was opened (a run still appending adds nothing to an
 * export already started, so every walk of one export sees the same records).
 */
export interface PagedTranscript {
  meta: TranscriptMeta;
  /** The last `seq` the walks stop at. */
  recordCount: number;
  pages(range?: WalkRange): AsyncIterable<readonly StoredRecord[]>;
}

/** `null` when the transcript is unknown or deleted. Reads its meta and count, no record. */
export async function openPagedTranscript(
  store: Pick<Store, "readRecords" | "readRecordPages">,
  id: string,
  pageSize?: number,
): Promise<PagedTranscript | null> {
  // `before: 1` asks for no record: the meta and the count come with an empty page.
  const head = await store.readRecords(id, { before: 1, limit: 1 });
  if (head === null) return null;
  const { meta, recordCount } = head;
  return {
    meta,
    recordCount,
    pages: (range = {}) =>
      store.readRecordPages(id, {
        after: range.after ?? 0,
        through: Math.min(range.through ?? recordCount, recordCount),
        ...(pageSize === undefined ? {} : { pageSize }),
      }),
  };
}

/** A transcript already in memory as pages of `pageSize` records (tests, small inputs). */
export function pagedOf(transcript: Transcript, pageSize = 1000): PagedTranscript {
  const { meta, records } = transcript;
  return {
    meta,
    recordCount: records.length,
    async *pages(range = {}) {
      const { after = 0, through = Number.POSITIVE_INFINITY } = range;
      const within = records.filter((record) => record.seq > after && record.seq <= through);
      for (let at = 0; at < within.length; at += pageSize) yield within.slice(at, at + pageSize);
    },
  };
}

/** Every record of a walk's pages, one at a time. */
export async function* recordsOf(
  pages: AsyncIterable<readonly StoredRecord[]>,
): AsyncGenerator<StoredRecord> {
  for await (const page of pages) yield* page;
}
