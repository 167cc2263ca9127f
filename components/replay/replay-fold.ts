import { RunLog } from "@/lib/client/run-log";
import type { TranscriptRecord } from "@/lib/protocol/records";
import type { ReplayFrame } from "@/lib/replay/cursor";

/** Records between two checkpoints of the folded log. */
export const CHECKPOINT_EVERY = 2000;
/** Checkpoints kept at most: past that, every other one goes and the spacing doubles. */
export const MAX_CHECKPOINTS = 32;

/**
 * Folds a replay's frames into the log the page shows, keeping copies of it along the way
 * (every `CHECKPOINT_EVERY` records of the plan): a frame that rebuilds (`reset`: a seek or a
 * step back) starts from the nearest copy before its end and folds only what follows it, so
 * going back costs about what going forward as far does, not a fold from the first record.
 * One per replay session: the planned records only grow, so a copy stays true for it.
 */
export class ReplayFold {
  /** The log shown (never a checkpoint itself) and how many planned records it holds. */
  log: RunLog;
  private count = 0;
  private spacing: number;
  /** Copies of the log after `at` records, in order of `at`. */
  private readonly checkpoints: { at: number; log: RunLog }[] = [];

  constructor(
    private readonly transcriptId: string | null,
    spacing = CHECKPOINT_EVERY,
    private readonly maxCheckpoints = MAX_CHECKPOINTS,
  ) {
    this.spacing = Math.max(1, spacing);
    this.log = this.fresh();
  }

  /** Empties the log (the replay's first frame is coming). */
  begin(): RunLog {
    this.log = this.fresh();
    this.count = 0;
    return this.log;
  }

  /** Folds `frame` (from the records it holds before, or, with `reset`, from nothing). */
  apply(frame: ReplayFrame): RunLog {
    if (!frame.reset) {
      this.fold(frame.records, 0);
      return this.log;
    }
    const end = frame.records.length;
    const from = this.nearest(end);
    this.log = from === undefined ? this.fresh() : from.log.clone();
    this.count = from?.at ?? 0;
    this.fold(frame.records, this.count);
    return this.log;
  }

  /** Checkpoints kept, by the records each holds (for tests and benches). */
  get kept(): number[] {
    return this.checkpoints.map((checkpoint) => checkpoint.at);
  }

  /** Folds `records[start…]`, which follow the `count` records the log holds, copying it at each spacing passed. */
  private fold(records: readonly TranscriptRecord[], start: number): void {
    for (let index = start; index < records.length; index++) {
      this.log.apply(records[index] as TranscriptRecord);
      this.count++;
      if (this.count % this.spacing === 0) this.keep();
    }
  }

  private keep(): void {
    const last = this.checkpoints.at(-1)?.at ?? 0;
    if (this.count <= last) return;
    this.checkpoints.push({ at: this.count, log: this.log.clone() });
    if (this.checkpoints.length <= this.maxCheckpoints) return;
    // Thinned: every other one goes (those at odd multiples of the new spacing).
    this.spacing *= 2;
    const kept = this.checkpoints.filter((checkpoint) => checkpoint.at % this.spacing === 0);
    this.checkpoints.length = 0;
    this.checkpoints.push(...kept);
  }

  /** The last checkpoint at or before `count` records. */
  private nearest(count: number): { at: number; log: RunLog } | undefined {
    let low = 0;
    let high = this.checkpoints.length - 1;
    let found: { at: number; log: RunLog } | undefined;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const checkpoint = this.checkpoints[middle] as { at: number; log: RunLog };
      if (checkpoint.at <= count) {
        found = checkpoint;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found;
  }

  private fresh(): RunLog {
    const log = new RunLog();
    log.transcriptId = this.transcriptId;
    return log;
  }
}
