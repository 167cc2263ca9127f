import type { TranscriptRecord } from "../protocol/records";

/** A record and when it happens on the replay's clock, in ms from the transcript's start. */
export interface TimedRecord {
  at: number;
  record: TranscriptRecord;
}

export interface TimelineOptions {
  /** The pause put between two runs of a conversation (default 500 ms), whatever it was live. */
  runGapMs?: number;
  /**
   * These records continue a timeline whose last record is at this time, and begin a run there
   * (a long transcript planned a few runs at a time): the same times as when planned whole.
   */
  after?: number;
}

/**
 * When each record happens on replay (pure). Chunks and requests carry their time (`t`, ms
 * since their run started). Events take theirs from their own timestamp relative to their run's
 * user message, held between their neighbours' times (so a clock skew cannot reorder them);
 * events without a usable timestamp take the previous record's time. Runs (see `runStarts`)
 * follow each other after `runGapMs`. Times never decrease.
 */
export function buildTimeline(
  records: readonly (TranscriptRecord & { runId?: string })[],
  options: TimelineOptions = {},
): TimedRecord[] {
  const gap = options.runGapMs ?? 500;
  const starts = runStarts(records);
  if (options.after !== undefined && records.length > 0) starts[0] = true;
  // The `t` of the next chunk or request of the same run, for every index.
  const nextT: (number | undefined)[] = new Array(records.length);
  let upcoming: number | undefined;
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index] as TranscriptRecord;
    nextT[index] = upcoming;
    if (record.kind !== "event") upcoming = record.t;
    if (starts[index]) upcoming = undefined;
  }

  const timed: TimedRecord[] = [];
  let offset = 0;
  let epoch = 0;
  let last = options.after ?? 0;
  records.forEach((record, index) => {
    if (starts[index]) {
      if (index > 0 || options.after !== undefined) offset = last + gap;
      // A run resumed without a message has no user event to take its start time from.
      epoch = record.kind === "event" && record.event.type === "user" ? record.event.timestamp : 0;
    }
    let at: number;
    if (record.kind !== "event") {
      at = offset + record.t;
    } else if (starts[index]) {
      at = offset;
    } else {
      const { timestamp } = record.event;
      const own = epoch > 0 && timestamp > 0 ? offset + (timestamp - epoch) : last;
      const next = nextT[index];
      at = next === undefined ? own : Math.min(own, offset + next);
    }
    at = Number.isFinite(at) ? Math.max(at, last) : last;
    last = at;
    timed.push({ at, record });
  });
  return timed;
}

/**
 * Where runs start: at a user message (a sub-agent's task, with a `parent`, is not one), or
 * where the stored `runId` changes (a run resumed without a message has no user message).
 */
export function runStarts(records: readonly (TranscriptRecord & { runId?: string })[]): boolean[] {
  let runId: string | undefined;
  return records.map((record) => {
    const changed = record.runId !== undefined && runId !== undefined && record.runId !== runId;
    if (record.runId !== undefined) runId = record.runId;
    return isUserMessage(record) || changed;
  });
}

function isUserMessage(record: TranscriptRecord): boolean {
  return (
    record.kind === "event" && record.event.type === "user" && record.event.parent === undefined
  );
}
