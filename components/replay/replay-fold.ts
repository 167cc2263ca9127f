import { type LogHistory, RunLog } from "@/lib/client/run-log";
import type { TranscriptRecord } from "@/lib/protocol/records";
import type { ReplayFrame } from "@/lib/replay/cursor";

/**
 * Folds a replay's frames into the log the page shows. A frame that rebuilds (`reset`: a seek
 * or a step back) gets a new log copied from the furthest one folded (`front`), as it was at the
 * frame's end (`RunLog.copyAsOf`, from the front's history: counts and what changed in place, a
 * few numbers a record), so going back costs a copy of the log, not a fold from the first
 * record, and no copy is kept: at most two logs are held (the front and the one shown, while
 * it is behind). One per replay session: the planned records only grow, so the front's past is
 * every earlier frame's.
 */
export class ReplayFold {
  /** The log shown (a new one at each `reset`: views only append) and its planned records. */
  log: RunLog;
  private count = 0;
  /** The log folded furthest (the one shown, unless a seek went back), its records, its history. */
  private front: RunLog;
  private high = 0;
  private history: LogHistory | null = null;

  constructor(private readonly transcriptId: string | null) {
    this.log = this.fresh();
    this.front = this.log;
  }

  /** Empties the log (the replay's first frame is coming). */
  begin(): RunLog {
    this.log = this.fresh();
    this.front = this.log;
    this.history = this.log.keepHistory();
    this.count = 0;
    this.high = 0;
    return this.log;
  }

  /** Folds `frame` (from the records it holds before, or, with `reset`, from nothing). */
  apply(frame: ReplayFrame): RunLog {
    if (this.history === null) this.begin();
    if (!frame.reset) {
      this.fold(frame.records);
      return this.log;
    }
    const end = frame.count ?? frame.records.length;
    const from = Math.min(end, this.high);
    const history = this.history as LogHistory;
    this.log = this.front.copyAsOf(history.start + from);
    this.count = from;
    if (from === this.high) this.takeFront();
    if (end > from) this.fold(frame.recordsFrom?.(from) ?? frame.records.slice(from, end));
    return this.log;
  }

  /** Folds `records`, which follow the `count` the log holds; past the front's, it is the front. */
  private fold(records: readonly TranscriptRecord[]): void {
    for (const record of records) {
      this.log.apply(record);
      this.count++;
      if (this.log === this.front) this.high = this.count;
      else if (this.count === this.high) this.takeFront();
    }
  }

  /** The log shown caught up with the front: it goes on with its history, the old one goes. */
  private takeFront(): void {
    if (this.log === this.front) return;
    this.front.keepHistory(null);
    this.log.keepHistory(this.history);
    this.front = this.log;
  }

  private fresh(): RunLog {
    const log = new RunLog();
    log.transcriptId = this.transcriptId;
    return log;
  }
}
