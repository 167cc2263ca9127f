"use client";

import { useEffect, useState } from "react";
import type { RunSpan } from "@/lib/replay/run-spans";
import { usePlayground } from "@/state/playground-store";
import { pagesOf } from "@/state/transcript-pages";

/**
 * How long the transcript must stay the same before its runs are asked for: while a run
 * streams, its record count changes every few milliseconds, and each ask makes the store go
 * over every record (~0.1 s at 50,000 events).
 */
export const RESTING_RUNS_QUIET_MS = 500;

/**
 * Past this many records the length is left an estimate until Play: the store's walk over
 * every record holds a SQLite server for its time (0.33 s at 300,000 records), too much to
 * spend on every open of such a transcript. Play asks for the runs once, with its first page.
 */
export const RESTING_RUNS_MAX_RECORDS = 100_000;

/**
 * The runs of a transcript opened from its tail, asked of the server once it has stayed
 * `recordCount` records long for `RESTING_RUNS_QUIET_MS` with no run of this page going, and
 * only up to `RESTING_RUNS_MAX_RECORDS` (`?limit=1&from=end&runs=1`): what the
 * replay bar needs to show the whole length before Play, where the loaded tail only gives an
 * estimate. Undefined until they come, when `enabled` is false, or when the read failed (the
 * bar keeps its estimate: nothing a user must act on).
 */
export function useRestingRuns(
  id: string,
  recordCount: number,
  enabled: boolean,
): readonly RunSpan[] | undefined {
  const [known, setKnown] = useState<{ key: string; runs: readonly RunSpan[] } | null>(null);
  const key = `${id}\u0000${recordCount}`;
  // Not while a run of this page streams: its count changes with every record, and a tool call
  // longer than the quiet time would ask again each turn. Once it has ended, once.
  const running = usePlayground(
    (state) => state.status === "running" || state.status === "stopping",
  );
  const asks = enabled && !running && recordCount <= RESTING_RUNS_MAX_RECORDS;
  useEffect(() => {
    if (!asks) return;
    let live = true;
    const timer = setTimeout(async () => {
      const page = await pagesOf(id)({ limit: 1, from: "end", runs: 1 });
      if (live && page.ok && page.value.runs !== undefined)
        setKnown({ key, runs: page.value.runs });
    }, RESTING_RUNS_QUIET_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [id, key, asks]);
  return asks && known?.key === key ? known.runs : undefined;
}
