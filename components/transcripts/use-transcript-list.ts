"use client";

import { useEffect, useState } from "react";
import type { TranscriptSource, TranscriptSummary } from "@/lib/store/store";
import { usePlayground } from "@/state/playground-store";
import { listTranscripts } from "./api";

export interface TranscriptList {
  transcripts: TranscriptSummary[];
  /** Still waiting for the first page of this query. */
  loading: boolean;
  error: string | null;
  more: boolean;
  loadMore(): void;
}

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 250;

/**
 * How long after a failed fetch the list asks again. A server whose database was down answers
 * 503 until it is back; without asking again the sidebar kept the error until the next run.
 */
export const LIST_RETRY_MS = 3000;

/**
 * Whether a failed list is worth asking for again: the server failed (5xx) or none answered.
 * A 4xx (a search text over its length limit) answers the same until the request changes.
 */
export function retriesAfter(status: number | undefined): boolean {
  return status === undefined || status >= 500;
}

/**
 * Saved transcripts, newest first, for a search text: searched after typing pauses, fetched
 * again whenever the store says the list changed (`listVersion`), and after a server or
 * network failure every `LIST_RETRY_MS` until it is read (the error shows meanwhile).
 */
export function useTranscriptList(query: string, source?: TranscriptSource): TranscriptList {
  const listVersion = usePlayground((state) => state.listVersion);
  const debounced = useDebounced(query, SEARCH_DEBOUNCE_MS);
  const [pages, setPages] = useState(1);
  /** Counts the retries after a failure: each one fetches the list again. */
  const [retry, setRetry] = useState(0);
  const [state, setState] = useState<Omit<TranscriptList, "loadMore">>({
    transcripts: [],
    loading: true,
    error: null,
    more: false,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new query starts from its first page
  useEffect(() => setPages(1), [debounced, source]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: listVersion and retry are refresh signals
  useEffect(() => {
    let live = true;
    let again: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      const transcripts: TranscriptSummary[] = [];
      let offset: number | null = 0;
      for (let page = 0; page < pages && offset !== null; page++) {
        const result = await listTranscripts(debounced, offset, source);
        if (!live) return;
        if (!result.ok) {
          setState((previous) => ({ ...previous, loading: false, error: result.error }));
          if (retriesAfter(result.status))
            again = setTimeout(() => setRetry((count) => count + 1), LIST_RETRY_MS);
          return;
        }
        transcripts.push(...result.value.transcripts);
        offset = result.value.nextOffset;
      }
      setState({ transcripts, loading: false, error: null, more: offset !== null });
    })();
    return () => {
      live = false;
      clearTimeout(again);
    };
  }, [debounced, pages, listVersion, source, retry]);

  return { ...state, loadMore: () => setPages((count) => count + 1) };
}

/** `value`, once it has stayed the same for `ms`. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
