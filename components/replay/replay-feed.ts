import type { ForwardReader } from "@/lib/client/record-pages";
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
  private reading: Promise<boolean> | null = null;
  private stopped = false;

  constructor(
    readonly planner: ReplayPlanner,
    private readonly reader: ForwardReader,
    recordCount: number,
    private readonly listener: FeedListener,
  ) {
    this.recordCount = recordCount;
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
    const entries = this.planner.add(page.value.records, page.value.done);
    this.listener.planned(entries, this.planner.complete);
    return true;
  }
}
