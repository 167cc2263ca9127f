"use client";

import { useCallback, useDeferredValue, useMemo } from "react";
import { readFromStart, startsAtFirst } from "@/lib/client/record-pages";
import { dialectOf } from "@/lib/protocol";
import type { TimedRecord } from "@/lib/replay/timeline";
import type { OpenTranscript } from "@/state/playground-store";
import { pagesOf } from "@/state/transcript-pages";
import { planReplay, ReplayPlanner } from "./replay-plan";
import type { ReplaySource } from "./replay-session";
import type { RestingReplay } from "./use-replay";

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
  open: () => ReplaySource;
  resting: RestingReplay;
} {
  const records = useDeferredValue(transcript.records, NO_RECORDS);
  const dialect = dialectOf(transcript.meta);
  const plan = useMemo(() => planReplay(dialect, records), [dialect, records]);
  const whole = startsAtFirst(records);
  const id = transcript.meta.id;
  const recordCount = Math.max(transcript.recordCount ?? 0, records.at(-1)?.seq ?? 0);
  const resting = useMemo(
    (): RestingReplay =>
      whole
        ? { duration: plan.duration, complete: true, entries: plan.entries, diffs: plan.diffs }
        : {
            duration: records.length === 0 ? 0 : (plan.duration * recordCount) / records.length,
            complete: false,
            entries: NO_ENTRIES,
            diffs: plan.diffs,
          },
    [whole, plan, records, recordCount],
  );
  const open = useCallback(
    (): ReplaySource =>
      whole
        ? { kind: "whole", plan }
        : {
            kind: "paged",
            planner: new ReplayPlanner(dialect),
            reader: readFromStart(pagesOf(id), { known: records, recordCount, limit: REPLAY_PAGE }),
            recordCount,
            duration: resting.duration,
          },
    [whole, plan, dialect, id, records, recordCount, resting],
  );
  return { open, resting };
}

const NO_ENTRIES: TimedRecord[] = [];
