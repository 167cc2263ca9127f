import type { ForwardReader } from "@/lib/client/record-pages";
import { exactDuration, type RunSpan } from "@/lib/replay/run-spans";
import type { TimedRecord } from "@/lib/replay/timeline";
import type { ReplayPlanner } from "./replay-plan";

export interface FeedListener {
  /** A page was read and planned: the entries it added (maybe none), and whether that is all. */
  planned(entries: readonly TimedRecord[], complete: boolean): void;
  failed(message: string): void;
}

/**
 * Feeds a replay from a transcript read from its first record, a page at a time: each page is
 * planned (`ReplayPlanner`, whole runs) as it arrives. One read at a time; `readUntil` reads
 * on until what was asked for is planned, never further. Nothing arrives after `stop`.
 */
export class ReplayFeed {
  /** The transcript's records, as the server last said. */
  recordCount: number;
  /** The transcript's runs, as the server last said (with the first page). */
  private runs: readonly RunSpan[] | undefined;
  private readonly lengths = new Map<number, { at: number; length: number | undefined }>();
  private reading: Promise<boolean> | null = null;
  private stopped = false;

  constructor(
    readonly planner: ReplayPlanner,
    private readonly reader: ForwardReader,
    recordCount: number,
    /** The transcript's runs, if known before the first page (the server tells them with it). */
    runs: readonly RunSpan[] | undefined,
    private readonly listener: FeedListener,
  ) {
    this.recordCount = recordCount;
    this.runs = runs;
  }

  /**
   * The replay's whole length from the transcript's runs (`exactDuration`), before its records
   * are read: when runs follow each other, or once those that ran at the same time are planned.
   * Undefined when only the records can tell, or the transcript grew since the runs were told.
   */
  exactDuration(): number | undefined {
    const { runs, planner } = this;
    if (runs === undefined || runs.at(-1)?.lastSeq !== this.recordCount) return undefined;
    if (planner.records === 0 || planner.midRun) return this.fromRuns(0, 0);
    // Of use when runs ran at the same time (the whole transcript's runs tell no length then).
    return this.fromRuns(0, 0) ?? this.fromRuns(planner.lastSeq, planner.duration);
  }

  /** `exactDuration(runs, { seq, at })`, worked out once per place (the view asks every frame). */
  private fromRuns(seq: number, at: number): number | undefined {
    const known = this.lengths.get(seq);
    if (known !== undefined && known.at === at) return known.length;
    const length = exactDuration(this.runs ?? [], { seq, at });
    this.lengths.set(seq, { at, length });
    return length;
  }

  /** A read is under way. */
  get busy(): boolean {
    return this.reading !== null;
  }

  /** Reads and plans the next page (joins the read under way); false when nothing was. */
  readMore(): Promise<boolean> {
    if (this.reading !== null) return this.reading;
    if (this.planner.complete || this.stopped) return Promise.resolve(false);
    this.reading = this.read();
    return this.reading;
  }

  /** Reads on until `enough()` or the transcript's end; false when a read failed or it stopped. */
  async readUntil(enough: () => boolean): Promise<boolean> {
    while (!enough() && !this.planner.complete) if (!(await this.readMore())) return false;
    return !this.stopped;
  }

  stop(): void {
    this.stopped = true;
  }

  private async read(): Promise<boolean> {
    let page: Awaited<ReturnType<ForwardReader["next"]>>;
    try {
      page = await this.reader.next();
    } finally {
      // Not busy by the time the page is planned: what it sets off may read the next one.
      this.reading = null;
    }
    if (this.stopped) return false;
    if (!page.ok) {
      this.listener.failed(page.error);
      return false;
    }
    this.recordCount = page.value.recordCount;
    if (page.value.runs !== undefined) {
      this.runs = page.value.runs;
      this.lengths.clear();
    }
    const entries = this.planner.add(page.value.records, page.value.done);
    this.listener.planned(entries, this.planner.complete);
    return true;
  }
}
