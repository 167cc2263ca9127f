import type { TranscriptRecord } from "../protocol/records";
import type { TimedRecord } from "./timeline";

/** How far a step goes: a whole event (a streamed one's pieces together) or one record of it. */
export type StepUnit = "event" | "piece";

/** What a view applies: with `reset`, clear and fold `records` from scratch; else append them. */
export interface ReplayFrame {
  reset: boolean;
  /** With `reset` from a cursor: built when first read (a long replay's seek back may not need it). */
  readonly records: TranscriptRecord[];
  /** With `reset` from a cursor: how many records `records` holds. */
  count?: number;
  /** With `reset` from a cursor: `records` from `start` on, without building those before. */
  recordsFrom?(start: number): TranscriptRecord[];
}

/**
 * The pure core of replay playback: a position on the timeline (ms) and how many records have
 * been emitted. No timers and no clock: the caller says where time is (`advanceTo`) or moves
 * by event. Going back rebuilds: a `reset` frame with every record up to the new point, because
 * folded views (a `RunLog`) only append (built only if read: a view keeping copies of its log
 * reads `count`, and `recordsFrom` past its copy).
 */
export class ReplayCursor {
  private next = 0;
  private time = 0;
  private readonly entries: TimedRecord[];

  constructor(entries: readonly TimedRecord[]) {
    this.entries = [...entries];
  }

  /**
   * Adds entries that follow the last one (a long transcript planned as it is read): none of
   * them may be due before it. What was emitted stays as it is.
   */
  append(more: readonly TimedRecord[]): void {
    const last = this.duration;
    if ((more[0]?.at ?? last) < last)
      throw new RangeError(
        `Appended replay entries must not go back in time (${more[0]?.at} < ${last}): plan them after the last one.`,
      );
    for (const entry of more) this.entries.push(entry);
  }

  /** Records emitted so far. */
  get index(): number {
    return this.next;
  }

  get position(): number {
    return this.time;
  }

  get length(): number {
    return this.entries.length;
  }

  get duration(): number {
    return this.entries.at(-1)?.at ?? 0;
  }

  get done(): boolean {
    return this.next >= this.entries.length;
  }

  /** When the next record is due, or `undefined` at the end. */
  nextAt(): number | undefined {
    return this.entries[this.next]?.at;
  }

  /** Moves time forward to `position`, emitting every record due by then. */
  advanceTo(position: number): ReplayFrame {
    if (position < this.time) return this.seek(position);
    this.time = Math.min(position, this.duration);
    const start = this.next;
    while (this.next < this.entries.length && (this.entries[this.next]?.at ?? 0) <= position)
      this.next++;
    return this.slice(false, start);
  }

  /**
   * Emits up to and including the next event (the chunks and requests before it too). By
   * `"event"` (the default) a streamed think/respond counts once: its following pieces (same
   * id, no other event between) come along. By `"piece"`, one event record at a time.
   */
  stepForward(unit: StepUnit = "event"): ReplayFrame {
    const start = this.next;
    let end = this.entries.length;
    let id: string | undefined;
    for (let at = this.next; at < this.entries.length; at++) {
      const record = this.entries[at]?.record;
      if (record?.kind !== "event") continue;
      if (id !== undefined && record.event.id !== id) break;
      id = record.event.id;
      end = at + 1;
      if (unit === "piece") break;
    }
    for (; this.next < end; this.next++)
      this.time = Math.max(this.time, this.entries[this.next]?.at ?? 0);
    return this.slice(false, start);
  }

  /**
   * Takes back the last emitted event (and what followed it): a rebuild up to just before it.
   * By `"event"`, all of a streamed event's pieces go; by `"piece"`, only the last one.
   */
  stepBack(unit: StepUnit = "event"): ReplayFrame {
    let target = this.next - 1;
    while (target >= 0 && this.entries[target]?.record.kind !== "event") target--;
    const last = this.entries[target]?.record;
    if (unit === "event" && last?.kind === "event") {
      for (let at = target - 1; at >= 0; at--) {
        const record = this.entries[at]?.record;
        if (record?.kind !== "event") continue;
        if (record.event.id !== last.event.id) break;
        target = at;
      }
    }
    return this.rebuild(Math.max(0, target));
  }

  /** Jumps to `position`: forward emits what is due; backward rebuilds. */
  seek(position: number): ReplayFrame {
    const clamped = Math.max(0, Math.min(position, this.duration));
    if (clamped >= this.time) return this.advanceTo(clamped);
    let count = 0;
    while (count < this.entries.length && (this.entries[count]?.at ?? 0) <= clamped) count++;
    if (count === this.next) {
      this.time = clamped;
      return { reset: false, records: [] };
    }
    const frame = this.rebuild(count);
    this.time = clamped;
    return frame;
  }

  private rebuild(count: number): ReplayFrame {
    this.next = count;
    this.time = count > 0 ? (this.entries[count - 1]?.at ?? 0) : 0;
    const { entries } = this;
    const recordsFrom = (start: number) => recordsOf(entries, start, count);
    let records: TranscriptRecord[] | undefined;
    return {
      reset: true,
      get records() {
        records ??= recordsFrom(0);
        return records;
      },
      count,
      recordsFrom,
    };
  }

  private slice(reset: boolean, start: number): ReplayFrame {
    return { reset, records: recordsOf(this.entries, start, this.next) };
  }
}

/** The records of `entries[start…end)` (entries only grow: a slice stays true). */
function recordsOf(
  entries: readonly TimedRecord[],
  start: number,
  end: number,
): TranscriptRecord[] {
  const records: TranscriptRecord[] = [];
  for (let index = start; index < end; index++)
    records.push((entries[index] as TimedRecord).record);
  return records;
}
