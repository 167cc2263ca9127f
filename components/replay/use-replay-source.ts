"use client";

import { useCallback, useDeferredValue, useMemo } from "react";
import { readFromStart, startsAtFirst } from "@/lib/client/record-pages";
import { dialectOf } from "@/lib/protocol";
import { exactDuration } from "@/lib/replay/run-spans";
import type { TimedRecord } from "@/lib/replay/timeline";
import type { OpenTranscript } from "@/state/playground-store";
import { pagesOf } from "@/state/transcript-pages";
import { planReplay, ReplayPlanner } from "./replay-plan";
import type { ReplaySource } from "./replay-session";
import type { RestingReplay } from "./use-replay";
import { useRestingRuns } from "./use-resting-runs";

const NO_RECORDS: OpenTranscript["records"] = [];

/** Records per page a replay reads a long transcript in (a few runs; planned in one go). */
export const REPLAY_PAGE = 1000;

/**
 * Where a replay of `transcript` gets its records: all loaded, the plan of them; else read
 * from its first record (the loaded tail reused when reached). The loaded records are planned
 * first, in a deferred render after the cards paint: for a whole transcript that is the plan,
 * for a tail it tells the diffs so far and about how long the whole is.
 */
export function useReplaySource(transcript: OpenTranscript): {
  /** Null while the deferred records are not yet `transcript`'s (it was just switched to). */
  open: () => ReplaySource | null;
  resting: RestingReplay;
} {
  // Records, id, dialect and count from one deferred snapshot: never one transcript's id with
  // another's records.
  const shown = useDeferredValue<OpenTranscript | null>(transcript, null);
  const records = shown?.records ?? NO_RECORDS;
  const meta = shown?.meta ?? transcript.meta;
  const current = shown !== null && meta.id === transcript.meta.id;
  const dialect = dialectOf(meta);
  const plan = useMemo(() => planReplay(dialect, records), [dialect, records]);
  const whole = startsAtFirst(records);
  const id = meta.id;
  const recordCount = Math.max(shown?.recordCount ?? 0, records.at(-1)?.seq ?? 0);
  // A tail's runs, for the whole length before Play (they must end where the transcript does).
  const told = useRestingRuns(id, recordCount, current && !whole && recordCount > 0);
  const runs = told?.at(-1)?.lastSeq === recordCount ? told : undefined;
  const resting = useMemo((): RestingReplay => {
    if (whole)
      return {
        records,
        duration: plan.duration,
        exact: true,
        complete: true,
        entries: plan.entries,
        diffs: plan.diffs,
      };
    const exact = runs === undefined ? undefined : exactDuration(runs);
    return {
      records,
      duration:
        exact ?? (records.length === 0 ? 0 : (plan.duration * recordCount) / records.length),
      exact: exact !== undefined,
      complete: false,
      entries: NO_ENTRIES,
      diffs: plan.diffs,
    };
  }, [whole, plan, records, recordCount, runs]);
  const open = useCallback(
    (): ReplaySource | null =>
      !current
        ? null
        : whole
          ? { kind: "whole", plan }
          : {
              kind: "paged",
              planner: new ReplayPlanner(dialect),
              reader: readFromStart(pagesOf(id), {
                known: records,
                recordCount,
                limit: REPLAY_PAGE,
              }),
              recordCount,
              duration: resting.duration,
              ...(runs === undefined ? {} : { runs }),
            },
    [current, whole, plan, dialect, id, records, recordCount, resting, runs],
  );
  return { open, resting };
}

const NO_ENTRIES: TimedRecord[] = [];
