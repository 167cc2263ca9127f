import { StoreError } from "./errors";
import { normalizeQuery } from "./search-text";
import {
  DEFAULT_LIST_LIMIT,
  type ListOptions,
  MAX_LIST_LIMIT,
  MAX_RECORD_PAGE,
  type RecordPageOptions,
  TRANSCRIPT_SOURCES,
  type TranscriptSource,
} from "./store";

export interface ListQuery {
  /** Folded for search, or `undefined` for everything. */
  query: string | undefined;
  limit: number;
  offset: number;
  /** Only this source, or `undefined` for every source. */
  source: TranscriptSource | undefined;
}

export function normalizeListOptions(options: ListOptions = {}): ListQuery {
  const limit = options.limit ?? DEFAULT_LIST_LIMIT;
  const offset = options.offset ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_LIST_LIMIT) {
    throw new StoreError("invalid", `limit must be an integer from 1 to ${MAX_LIST_LIMIT}.`);
  }
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new StoreError("invalid", "offset must be an integer ≥ 0.");
  }
  if (options.source !== undefined && !TRANSCRIPT_SOURCES.includes(options.source)) {
    throw new StoreError("invalid", `source must be one of ${TRANSCRIPT_SOURCES.join(", ")}.`);
  }
  return { query: normalizeQuery(options.query), limit, offset, source: options.source };
}

export interface RecordRange {
  after: number;
  /** `Number.MAX_SAFE_INTEGER` when unbounded. */
  before: number;
  limit: number;
  fromEnd: boolean;
}

export function normalizeRecordPage(options: RecordPageOptions): RecordRange {
  const { after = 0, before = Number.MAX_SAFE_INTEGER, limit, from = "start" } = options;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_RECORD_PAGE) {
    throw new StoreError("invalid", `limit must be an integer from 1 to ${MAX_RECORD_PAGE}.`);
  }
  if (!Number.isSafeInteger(after) || after < 0) {
    throw new StoreError("invalid", "after must be an integer ≥ 0.");
  }
  if (!Number.isSafeInteger(before) || before < 1) {
    throw new StoreError("invalid", "before must be an integer ≥ 1.");
  }
  return { after, before, limit, fromEnd: from === "end" };
}

/**
 * The array indexes `[start, end)` of a page of `count` records held in `seq` order: `seq`
 * counts from 1 with no gaps, so record `seq` is at index `seq - 1`.
 */
export function pageIndexes(count: number, range: RecordRange): [number, number] {
  const start = Math.min(range.after, count);
  const end = Math.max(start, Math.min(range.before - 1, count));
  return range.fromEnd
    ? [Math.max(start, end - range.limit), end]
    : [start, Math.min(end, start + range.limit)];
}
