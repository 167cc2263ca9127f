import type { Dialect, DialectDefinition } from "@/lib/protocol";
import type { TranscriptRecord } from "@/lib/protocol/records";
import type { ReplayDiff } from "@/lib/replay/diff";
import { replayRecords } from "@/lib/replay/replay";
import { buildTimeline, type TimedRecord } from "@/lib/replay/timeline";
import { type ReplayMark, replayMarks } from "./marks";

/** What the replay bar plays: the re-parsed records on the recorded clock, and what differs. */
export interface ReplayPlan {
  entries: TimedRecord[];
  diffs: ReplayDiff[];
  marks: ReplayMark[];
  duration: number;
}

/**
 * Re-feeds the recorded chunks through today's parser (`replayRecords`) and times the result
 * the way it was recorded (`buildTimeline`). Pure: the same transcript gives the same plan.
 */
export function planReplay(
  dialect: Dialect | DialectDefinition,
  records: readonly TranscriptRecord[],
): ReplayPlan {
  const { records: replayed, diffs } = replayRecords(dialect, records);
  const entries = buildTimeline(replayed);
  const duration = entries.at(-1)?.at ?? 0;
  return { entries, diffs, marks: replayMarks(entries, duration), duration };
}
