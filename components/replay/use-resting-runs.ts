"use client";

import { useEffect, useState } from "react";
import type { RunSpan } from "@/lib/replay/run-spans";
import { pagesOf } from "@/state/transcript-pages";

/**
 * How long the transcript must stay the same before its runs are asked for: while a run
 * streams, its record count changes every few milliseconds, and each ask makes the store go
 * over every record (~0.1 s at 50,000 events).
 */
export const RESTING_RUNS_QUIET_MS = 500;

/**
 * The runs of a transcript opened from its tail, asked of the server once it has stayed
 * `recordCount` records long for `RESTING_RUNS_QUIET_MS` (`?limit=1&from=end&runs=1`): what the
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
  useEffect(() => {
    if (!enabled) return;
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
  }, [id, key, enabled]);
  return enabled && known?.key === key ? known.runs : undefined;
}
