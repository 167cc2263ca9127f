import type { RunInfo, Store } from "../store";
import type { LiveRun } from "./live-run";
import { RunTail, type TailAttach } from "./run-tail";
import type { ViewerLimits } from "./run-viewer";

/**
 * Other instances' runs followed here (docs/live-runs.md#several-instances): one `RunTail` a
 * run, shared by every viewer of it on this instance, reading its records from the store until
 * it ends (`RunRegistry.follow`).
 */
export class FollowedRuns {
  /** By run id; each settles once the run's records so far are read. */
  private readonly tails = new Map<string, Promise<RunTail>>();
  private readonly watched = new WeakSet<Store>();

  constructor(
    private readonly options: {
      limits: ViewerLimits;
      /** How often a run is read from the store (`WIRESCOPE_POLL_MS`), as set now. */
      pollMs: () => number;
      /** How long a followed run's failing store reads are retried (`RunTail`). */
      readRetryMs: () => number;
    },
  ) {}

  /** The run's `LiveRun` here, started when none follows it yet; `null` when it has ended or is unknown. */
  async follow(store: Store, runId: string): Promise<LiveRun | null> {
    let tail = this.tails.get(runId);
    if (tail === undefined) {
      const info = await store.getRunInfo(runId);
      if (info === null || info.endedAt !== null) return null;
      // Checked again: another request may have started following it meanwhile.
      tail = this.tails.get(runId) ?? this.start(store, info);
    }
    return (await tail).live;
  }

  /**
   * A viewer of the run from record `after` on (`RunTail.attachAt`: a count not read here yet
   * is waited for, up to `waitMs`); `null` when the run has ended or is unknown.
   */
  async attach(
    store: Store,
    runId: string,
    after: number,
    waitMs: number,
  ): Promise<Exclude<TailAttach, { ok: "closed" }> | null> {
    // A tail that stopped (nobody watched it) just as this request found it: follow afresh.
    for (let attempt = 0; attempt < 3; attempt++) {
      if ((await this.follow(store, runId)) === null) return null;
      const tail = await this.tails.get(runId);
      if (tail === undefined) continue;
      const answer = await tail.attachAt(after, waitMs);
      if (answer.ok !== "closed") return answer;
    }
    return null;
  }

  /** Calls `visit` with each followed run once its records so far are read. */
  forEach(visit: (tail: RunTail) => void): void {
    for (const tail of this.tails.values()) void tail.then(visit, () => undefined);
  }

  /**
   * A store that notifies appends (PostgreSQL) wakes the tails of that transcript at once.
   * Called once, when the instance starts, with the store itself (the routes hold a wrapper of
   * it), so the subscription is up before anyone follows a run.
   */
  watch(store: Store): void {
    if (store.watchAppends === undefined || this.watched.has(store)) return;
    this.watched.add(store);
    store.watchAppends((transcriptId) => {
      this.forEach((tail) => {
        if (tail.live.transcriptId === transcriptId) void tail.poke();
      });
    });
  }

  private start(store: Store, run: RunInfo): Promise<RunTail> {
    const pollMs = this.options.pollMs();
    const tail = new RunTail({
      store,
      run,
      limits: this.options.limits,
      // Notified appends wake it; the poll is then only a safety net.
      pollMs: store.watchAppends === undefined ? pollMs : pollMs * 10,
      now: Date.now,
      onClose: () => {
        if (this.tails.get(run.runId) === started) this.tails.delete(run.runId);
      },
      readRetryMs: this.options.readRetryMs(),
    });
    const started = tail.start().then(
      () => tail,
      (error: unknown) => {
        tail.close();
        throw error;
      },
    );
    this.tails.set(run.runId, started);
    return started;
  }
}
