import type { TranscriptRecord } from "../protocol/records";
import { isParserEvent } from "./parser-events";

/** A record and when it happens on the replay's clock, in ms from the transcript's start. */
export interface TimedRecord {
  at: number;
  record: TranscriptRecord;
}

/** The pause put between two runs of a conversation, whatever it was live. */
export const RUN_GAP_MS = 500;

export interface TimelineOptions {
  /** The pause put between two runs of a conversation (default 500 ms), whatever it was live. */
  runGapMs?: number;
  /**
   * These records continue a timeline whose last record is at this time, and begin a run there
   * (a long transcript planned a few runs at a time): the same times as when planned whole.
   */
  after?: number;
  /**
   * These records go on with a run planned before them (a run longer than a page, planned a
   * few turns at a time): its clock, as `timedRun` left it, and its last record's time.
   */
  resume?: RunClock & { last: number };
}

/** Where a run's clock starts on the replay's (its `t` 0), and its start's epoch time (0: unknown). */
export interface RunClock {
  base: number;
  epoch: number;
}

type RunRecord = TranscriptRecord & { runId?: string };

/**
 * When each record happens on replay (pure). Chunks and requests carry their time (`t`, ms
 * since their run started). Events take theirs from their own timestamp relative to their run's
 * user message, held between their neighbours' times (so a clock skew cannot reorder them);
 * events without a usable timestamp take the previous record's time. Runs (see `runStarts`)
 * follow each other after `runGapMs`, except runs that ran at the same time (their records
 * interleave, see `groupStarts`): those share one stretch of the clock, each placed at the
 * time it started (`runEpochs`). Times never decrease.
 */
export function buildTimeline(
  records: readonly RunRecord[],
  options: TimelineOptions = {},
): TimedRecord[] {
  return timedRun(records, options).entries;
}

/**
 * `buildTimeline`, and the clock of the run its last record belongs to (for `resume`; of use
 * when that run is the only one of its group).
 */
export function timedRun(
  records: readonly RunRecord[],
  options: TimelineOptions = {},
): { entries: TimedRecord[]; clock: RunClock } {
  const { resume } = options;
  const gap = options.runGapMs ?? RUN_GAP_MS;
  const starts = runStarts(records);
  if (options.after !== undefined && records.length > 0) starts[0] = true;
  const keys = runKeys(records, starts);
  const groups = groupsFrom(starts, keys);
  const shared = sharedGroups(groups, keys);
  const epochs = runEpochs(records, keys, starts);
  // The `t` of the next chunk or request of the same run (in the same group), for every index.
  const nextT: (number | undefined)[] = new Array(records.length);
  const upcoming = new Map<string, number>();
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index] as TranscriptRecord;
    const key = keys[index] as string;
    nextT[index] = upcoming.get(key);
    if (record.kind !== "event") upcoming.set(key, record.t);
    if (groups[index]) upcoming.clear();
  }

  const timed: TimedRecord[] = [];
  let offset = resume?.base ?? 0;
  let last = resume?.last ?? options.after ?? 0;
  let together = false;
  let groupEpoch = 0;
  // Each run's clock in the group.
  const bases = new Map<string, RunClock>();
  let run: RunClock = { base: offset, epoch: 0 };
  records.forEach((record, index) => {
    const key = keys[index] as string;
    if (groups[index]) {
      if (index > 0 || (options.after !== undefined && resume === undefined)) offset = last + gap;
      together = shared[index] === true;
      bases.clear();
      const resumed = index === 0 && resume !== undefined && !starts[0];
      // A run going on started with its first part: runs joining it are placed from there.
      if (resumed && resume.epoch > 0) epochs.set(key, resume.epoch);
      groupEpoch = together ? (epochs.get(key) ?? 0) : 0;
      if (resumed) bases.set(key, { base: resume.base, epoch: resume.epoch });
    }
    let found = bases.get(key);
    if (found === undefined) {
      found = together ? placeRun(key, index) : { base: offset, epoch: userTime(record) };
      bases.set(key, found);
    }
    run = found;
    let at: number;
    if (record.kind !== "event") {
      at = run.base + record.t;
    } else if (starts[index] && !together) {
      at = offset;
    } else {
      const { event } = record;
      // Re-parsed events carry the parser's clock, not their run's: they follow their chunk.
      const timed = !together || !isParserEvent(event);
      const own =
        timed && run.epoch > 0 && event.timestamp > 0
          ? run.base + (event.timestamp - run.epoch)
          : last;
      const next = nextT[index];
      at = next === undefined ? own : Math.min(own, run.base + next);
    }
    at = Number.isFinite(at) ? Math.max(at, last) : last;
    last = at;
    timed.push({ at, record });
  });
  return { entries: timed, clock: run };

  /**
   * A run of a group that ran at the same time, placed at its first record: at its start
   * relative to the group's first run, never before the group, and never so late that its
   * first record would come after the next record of a run already placed (records are
   * stored as they arrive: a clock skew between runs cannot stretch the group).
   */
  function placeRun(key: string, index: number): RunClock {
    const epoch = epochs.get(key) ?? 0;
    const now = Math.max(last, offset);
    if (epoch === 0 || groupEpoch === 0) return { base: now, epoch };
    const first = records[index] as TranscriptRecord;
    const into = first.kind === "event" ? 0 : first.t;
    const latest = nextPlaced(index);
    // Nothing tells how late it may start: where it is reached (a clock skew cannot stretch it).
    if (latest === undefined) return { base: now, epoch };
    const base = Math.min(Math.max(offset, offset + (epoch - groupEpoch)), latest - into);
    return { base: Math.max(base, offset), epoch };
  }

  /**
   * When the first record after `index` of a run already placed happens (a chunk or a request
   * at its `t`; a runtime event at its own time, on a run whose start is known), within
   * `LOOK_AHEAD` records of the group; undefined when none does.
   */
  function nextPlaced(index: number): number | undefined {
    const end = Math.min(records.length, index + 1 + LOOK_AHEAD);
    for (let next = index + 1; next < end && !groups[next]; next++) {
      const record = records[next] as TranscriptRecord;
      const placed = bases.get(keys[next] as string);
      if (placed === undefined) continue;
      if (record.kind !== "event") return placed.base + record.t;
      const { event } = record;
      if (placed.epoch > 0 && event.timestamp > 0 && !isParserEvent(event))
        return placed.base + (event.timestamp - placed.epoch);
    }
    return undefined;
  }
}

/** Records looked through for the next record of a run already placed (bounds the work). */
const LOOK_AHEAD = 1000;

/** A user message's time, or 0 (a run resumed without a message has no start time). */
function userTime(record: TranscriptRecord): number {
  return isUserMessage(record) && record.kind === "event" ? record.event.timestamp : 0;
}

/**
 * Where runs start: at a user message (a sub-agent's task, with a `parent`, is not one), or
 * where the stored `runId` changes (a run resumed without a message has no user message).
 */
export function runStarts(records: readonly RunRecord[]): boolean[] {
  let runId: string | undefined;
  return records.map((record) => {
    const changed = record.runId !== undefined && runId !== undefined && record.runId !== runId;
    if (record.runId !== undefined) runId = record.runId;
    return isUserMessage(record) || changed;
  });
}

/**
 * Which run each record belongs to: its stored `runId` (a record without one, such as a
 * re-parsed event, belongs to the run before it), counted anew at each of that run's user
 * messages (a run that a message starts is a run of its own).
 */
export function runKeys(records: readonly RunRecord[], starts: readonly boolean[]): string[] {
  const messages = new Map<string, number>();
  let runId = "";
  return records.map((record, index) => {
    if (record.runId !== undefined) runId = record.runId;
    let count = messages.get(runId) ?? 0;
    if (starts[index] && isUserMessage(record)) messages.set(runId, ++count);
    return `${count}:${runId}`;
  });
}

/**
 * Where groups of runs start on the clock: at a run start that no earlier run goes on after.
 * Runs whose records interleave (calls an agent made at the same time, recorded as they
 * arrived) form one group; runs one after another are a group each.
 */
export function groupStarts(records: readonly RunRecord[]): boolean[] {
  const starts = runStarts(records);
  return groupsFrom(starts, runKeys(records, starts));
}

function groupsFrom(starts: readonly boolean[], keys: readonly string[]): boolean[] {
  const lastOf = new Map<string, number>();
  keys.forEach((key, index) => {
    lastOf.set(key, index);
  });
  let reach = -1;
  return keys.map((key, index) => {
    const start = (starts[index] === true || index === 0) && reach < index;
    reach = Math.max(reach, lastOf.get(key) ?? index);
    return start;
  });
}

/** For each group start: whether the group holds more than one run. */
function sharedGroups(groups: readonly boolean[], keys: readonly string[]): boolean[] {
  const shared: boolean[] = new Array(keys.length).fill(false);
  let start = 0;
  keys.forEach((key, index) => {
    if (groups[index]) start = index;
    else if (key !== keys[start]) shared[start] = true;
  });
  return shared;
}

/**
 * When each run started, in ms since the epoch (absent: unknown): its user message's time, or
 * else the earliest its runtime events tell, each taken back by how far into its run it came
 * (a metric by its call's duration, another event by the `t` of its run's record before it).
 * Re-parsed events carry the parser's clock, not the run's, and are not asked.
 */
export function runEpochs(
  records: readonly RunRecord[],
  keys: readonly string[],
  starts: readonly boolean[],
): Map<string, number> {
  const epochs = new Map<string, number>();
  const fromMessage = new Set<string>();
  const elapsed = new Map<string, number>();
  records.forEach((record, index) => {
    const key = keys[index] as string;
    if (record.kind !== "event") {
      elapsed.set(key, record.t);
      return;
    }
    if (fromMessage.has(key)) return;
    const { event } = record;
    if (starts[index] && isUserMessage(record)) {
      if (event.timestamp > 0) {
        epochs.set(key, event.timestamp);
        fromMessage.add(key);
      }
      return;
    }
    if (isParserEvent(event) || !(event.timestamp > 0)) return;
    const into = event.type === "metric" ? event.step.durationMs : (elapsed.get(key) ?? 0);
    const epoch = event.timestamp - (Number.isFinite(into) && into > 0 ? into : 0);
    if (epoch > 0 && epoch < (epochs.get(key) ?? Number.POSITIVE_INFINITY)) epochs.set(key, epoch);
  });
  return epochs;
}

/** A user's message that starts a run (a sub-agent's task, with a `parent`, does not). */
export function isUserMessage(record: TranscriptRecord): boolean {
  return (
    record.kind === "event" && record.event.type === "user" && record.event.parent === undefined
  );
}
