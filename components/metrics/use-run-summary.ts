"use client";

import { useMemo } from "react";
import { usePriceTable } from "@/components/cost/use-price-table";
import { useFrameVersion } from "@/hooks/use-frame-version";
import { type RunSummary, summarize } from "@/lib/metrics";
import { usePlayground } from "@/state/playground-store";

/**
 * The numbers of what the timeline shows (a live run, an open transcript, a replay), from
 * the store's log, at most once per animation frame.
 */
export function useRunSummary(): RunSummary {
  const version = useFrameVersion();
  const log = usePlayground((state) => state.log);
  const model = usePlayground((state) => state.transcript?.meta.model);
  const prices = usePriceTable();
  // biome-ignore lint/correctness/useExhaustiveDependencies: the log is mutable; version says it changed
  return useMemo(
    () =>
      summarize(
        { events: log.events, turns: log.turns },
        { prices, ...(model === undefined ? {} : { model }) },
      ),
    [log, version, prices, model],
  );
}
