import { randomUUID } from "node:crypto";
import { withLiveExport } from "../otel/install";
import { type Store, StoreError } from "../store";
import { DEFAULT_POLL_MS } from "./config";
import { describeError } from "./describe-error";
import { FollowedRuns } from "./followed-runs";
import { LiveRun } from "./live-run";
import { type CommitQueue, createCommitQueue } from "./record-writer";
import { RunEnds } from "./run-ends";
import { TAIL_READ_RETRY_MS, type TailAttach } from "./run-tail";
import { VIEWER_BUFFER_BYTES, VIEWER_MAX_LAG_BYTES, type ViewerLimits } from "./run-viewer";
import { watchedElsewhereUntil } from "./run-watch";

/** A run in progress as `GET /api/runs?active=1` lists it. */
export interface ActiveRun {
  runId: string;
  transcriptId: string;
  startedAt: number;
  /** Records so far: a viewer that has them all attaches with `after` = this. */
  records: number;
}

export interface OpenRunInput {
  store: Store;
  transcriptId: string;
  /** Generated when absent. */
  runId?: string;
  /**
   * Aborted with `"user"` by a stop (from any instance), `"disconnect"` by the no-viewer
   * countdown, `"storage"` when its records cannot be kept. Every producer passes one: a run
   * without it cannot be stopped, and a stop sent to another instance could not say so.
   */
  controller?: AbortController;
  /** 0 (the default) = never stop a run for having no viewer. */
  stopUnwatchedAfterMs?: number;
  /** Refused (`RunBusyError`) while the transcript has another unfinished run, on any instance. */
  exclusive?: boolean;
  now?: () => number;
}

/** Told when a run's records are stored and its end noted; must return at once (no awaiting). */
export type FinishListener = (run: { transcriptId: string; runId: string }, store: Store) => void;

/** What a run's viewers here are told when another instance has taken it over. */
const TAKEN_OVER =
  "Another instance took this run over: this server did not renew its lease for longer than " +
  "WIRESCOPE_LEASE_MS (it stalled), so the run was marked crashed there. It was stopped here, " +
  "and nothing it produced since was kept.";

/** `open` with `exclusive`: the transcript already has a run in progress (maybe on another instance). */
export class RunBusyError extends Error {
  constructor(
    readonly transcriptId: string,
    readonly runId: string,
  ) {
    super(
      `Transcript ${JSON.stringify(transcriptId)} has run ${JSON.stringify(runId)} in progress.`,
    );
    this.name = "RunBusyError";
  }
}

/** How long a deletion is remembered for the starts and attaches that race it. */
const DELETED_KEPT_MS = 60_000;

/**
 * The server's runs in progress (docs/live-runs.md). Whatever produces a transcript's records — the
 * agent loop (`runs.ts`) or anything else, such as a capture proxy — calls `open`, then
 * `publish` for each record and `finish` at the end; the registry stores them (grouped
 * commits), fans them out to viewers and notes the run's start and end in the store so a
 * server that dies mid-run can mark it when it starts again (`crash-recovery.ts`).
 */
export class RunRegistry {
  private readonly runs = new Map<string, LiveRun>();
  private readonly queues = new WeakMap<Store, CommitQueue>();
  private readonly finishListeners: FinishListener[] = [];
  /** Runs of other instances followed here. */
  private readonly followed: FollowedRuns;
  /**
   * Runs here another instance took over (this one stalled past its lease): the adopter
   * announces their end, so `finish` does not (live OTLP export sent them twice).
   */
  private readonly takenOver = new Set<string>();
  /** Transcripts deleted lately (`noteDeleted`), with when. */
  private readonly deleted = new Map<string, number>();
  /** This process among the instances sharing the database (its runs are claimed under it). */
  readonly instanceId: string;
  /** How often another instance's run is read from the store (`WIRESCOPE_POLL_MS`). */
  pollMs = DEFAULT_POLL_MS;
  /** How long a followed run's failing store reads are retried before its viewers are told. */
  followReadRetryMs = TAIL_READ_RETRY_MS;
  /** Runs' ends stored, or tried again until they are (`finish`). */
  private readonly ends: RunEnds;

  constructor(
    private readonly limits: ViewerLimits,
    instanceId: string = randomUUID(),
  ) {
    this.instanceId = instanceId;
    this.ends = new RunEnds(instanceId);
    this.followed = new FollowedRuns({
      limits,
      pollMs: () => this.pollMs,
      readRetryMs: () => this.followReadRetryMs,
    });
  }

  /** How often a run's end the store failed to take is tried again (`finish`). */
  get endRetryMs(): number {
    return this.ends.retryMs;
  }
  set endRetryMs(ms: number) {
    this.ends.retryMs = ms;
  }

  /** Registers a run (and records its start in the store, which may reject). */
  async open(input: OpenRunInput): Promise<LiveRun> {
    const now = input.now ?? Date.now;
    const runId = input.runId ?? randomUUID();
    const startedAt = now();
    const claim = await input.store.claimRun({
      runId,
      transcriptId: input.transcriptId,
      startedAt,
      instanceId: this.instanceId,
      exclusive: input.exclusive ?? false,
    });
    if (!claim.ok) throw new RunBusyError(input.transcriptId, claim.runId);
    let run: LiveRun | undefined;
    const writer = this.queue(input.store).writer(input.transcriptId, runId, (error, unstored) => {
      if (error instanceof StoreError && error.code === "taken_over") {
        console.error(`wirescope: run ${runId} was taken over by another instance; stopped here.`);
        this.takenOver.add(runId);
        run?.fail(TAKEN_OVER);
        return;
      }
      console.error("wirescope: could not store a record:", describeError(error));
      run?.fail(
        "The transcript could not be saved (storage failed), so the run was stopped.",
        unstored,
      );
    });
    run = new LiveRun({
      runId,
      transcriptId: input.transcriptId,
      startedAt,
      writer,
      stopUnwatchedAfterMs: input.stopUnwatchedAfterMs ?? 0,
      watchedElsewhereUntil: () => watchedElsewhereUntil(input.store, runId),
      limits: this.limits,
      now,
      ...(input.controller === undefined ? {} : { controller: input.controller }),
    });
    this.runs.set(runId, run);
    // Deleted while it was being claimed: stopped, and its viewers told, as if it had been here.
    if (this.isDeleted(input.transcriptId)) {
      run.endViewers({ kind: "deleted", transcriptId: input.transcriptId });
      run.stop("user");
    }
    return run;
  }

  /**
   * Ends a run: its records are stored, its end noted, and it leaves the active list. When the
   * store fails (the database is down, the disk full), the end is tried again every
   * `endRetryMs` until it is stored (`run-ends.ts`): a run whose end was never noted stayed "in
   * progress" for as long as this instance lived, its conversation refused every new run.
   */
  async finish(run: LiveRun, store: Store, now: () => number = Date.now): Promise<void> {
    try {
      await run.finish();
      const { runId, transcriptId, storageFailure } = run;
      await this.ends.record({
        runId,
        transcriptId,
        store,
        endedAt: now(),
        failure: storageFailure,
      });
    } finally {
      this.runs.delete(run.runId);
    }
    if (!this.takenOver.delete(run.runId)) this.announceFinish(run, store);
  }

  /**
   * Tells the finish listeners a run has ended: one of this instance's (`finish`), or one of a
   * dead instance's that this one marked as crashed (`instance.ts`), which no listener of its
   * own will ever hear of.
   */
  announceFinish(run: { transcriptId: string; runId: string }, store: Store): void {
    for (const listener of this.finishListeners) {
      try {
        listener({ transcriptId: run.transcriptId, runId: run.runId }, store);
      } catch (error) {
        console.error("wirescope: a run-finish listener failed:", describeError(error));
      }
    }
  }

  /** Live OTLP export (`lib/otel`) listens here: each finished run is queued for sending. */
  onFinish(listener: FinishListener): void {
    this.finishListeners.push(listener);
  }

  get(runId: string): LiveRun | undefined {
    return this.runs.get(runId);
  }

  /** Whether any run here could be stopped (the stop-request poll runs only then). */
  get hasRuns(): boolean {
    return this.runs.size > 0;
  }

  /**
   * A run in progress to attach viewers to: this instance's own, or one another instance runs,
   * followed through the store (`RunTail`, shared by every viewer here). `null` when the store
   * has it finished or does not know it.
   */
  async follow(store: Store, runId: string): Promise<LiveRun | null> {
    return this.runs.get(runId) ?? this.followed.follow(store, runId);
  }

  /**
   * A viewer of another instance's run from record `after` on, followed through the store. A
   * viewer coming from the run's instance may count records not read here yet (the owner sends
   * before it stores): they are waited for, up to `waitMs`, before `{ ok: false, records }`.
   * `null` when the store has the run finished or does not know it.
   */
  async attachFollowed(
    store: Store,
    runId: string,
    after: number,
    waitMs: number,
  ): Promise<Exclude<TailAttach, { ok: "closed" }> | null> {
    return this.followed.attach(store, runId, after, waitMs);
  }

  /**
   * Ends the streams of every viewer here of the transcript's runs — its own and those of other
   * instances followed here — with `{ "kind": "deleted", transcriptId }` as their last record.
   * A viewer on another instance is ended there when the run ends.
   */
  endViewersOf(transcriptId: string): void {
    const deleted = { kind: "deleted", transcriptId };
    this.noteDeleted(transcriptId);
    for (const run of this.runs.values())
      if (run.transcriptId === transcriptId) run.endViewers(deleted);
    this.followed.forEach(({ live }) => {
      if (live.transcriptId === transcriptId) live.endViewers(deleted);
    });
  }

  /** The transcript was restored: its runs may be opened and watched again. */
  restored(transcriptId: string): void {
    this.deleted.delete(transcriptId);
  }

  /**
   * Notes a deletion for a while, for what races it: a run opened just after (a continuation
   * that checked the transcript just before) or a viewer attaching just after (the events
   * route's check) is ended at once as if it had been there.
   */
  private noteDeleted(transcriptId: string): void {
    const now = Date.now();
    for (const [id, at] of this.deleted) if (now - at > DELETED_KEPT_MS) this.deleted.delete(id);
    this.deleted.set(transcriptId, now);
  }

  private isDeleted(transcriptId: string): boolean {
    const at = this.deleted.get(transcriptId);
    return at !== undefined && Date.now() - at <= DELETED_KEPT_MS;
  }

  active(): ActiveRun[] {
    return [...this.runs.values()]
      .filter((run) => !run.finished)
      .map((run) => ({
        runId: run.runId,
        transcriptId: run.transcriptId,
        startedAt: run.startedAt,
        records: run.frameCount,
      }));
  }

  /** This instance's runs, then every other unfinished run the store has (other instances'). */
  async activeEverywhere(store: Store): Promise<ActiveRun[]> {
    const local = this.active();
    const others = (await store.listLiveRuns()).filter((run) => !this.runs.has(run.runId));
    return [
      ...local,
      ...others.map(({ runId, transcriptId, startedAt, records }) => ({
        runId,
        transcriptId,
        startedAt,
        records,
      })),
    ];
  }

  /** A stop request (from any connection); false when no such run is in progress here. */
  stop(runId: string): boolean {
    return this.runs.get(runId)?.stop("user") ?? false;
  }

  /**
   * A stop request for a run on any instance: this one's is stopped at once; another's is
   * asked for through the store, and its instance stops it at its next poll. False when no
   * such run is in progress anywhere.
   */
  async stopAnywhere(store: Store, runId: string, now: () => number = Date.now): Promise<boolean> {
    const local = this.runs.get(runId);
    if (local !== undefined) return local.stop("user");
    return (await store.requestRunStop(runId, now())) !== null;
  }

  /**
   * Stops this instance's runs that another instance has taken over: this one stalled past its
   * lease (a long pause, SIGSTOP) and they were adopted and marked crashed meanwhile. Their
   * viewers here get an `error` saying so; the store would refuse their records anyway (the
   * append's fence), this finds out even for a run with nothing new to write. Their ids.
   */
  async endTakenOverRuns(store: Store): Promise<string[]> {
    if (this.runs.size === 0) return [];
    // Taken before the read: a run opened after it is not in the answer, yet is still ours.
    const mine = [...this.runs.values()];
    const held = new Set(await store.listInstanceRuns(this.instanceId));
    const lost = mine.filter((run) => !held.has(run.runId) && run.fail(TAKEN_OVER));
    for (const run of lost) this.takenOver.add(run.runId);
    for (const run of lost)
      console.error(
        `wirescope: run ${run.runId} was taken over by another instance; stopped here.`,
      );
    return lost.map((run) => run.runId);
  }

  /** Stops this instance's runs that a stop was requested for through the store. */
  async applyStopRequests(store: Store): Promise<string[]> {
    if (this.runs.size === 0) return [];
    const requested = await store.listStopRequests(this.instanceId);
    return requested.filter((runId) => this.stop(runId));
  }

  /** A store that notifies appends wakes the followed runs of that transcript at once (`FollowedRuns.watch`). */
  watch(store: Store): void {
    this.followed.watch(store);
  }

  private queue(store: Store): CommitQueue {
    let queue = this.queues.get(store);
    if (queue === undefined) {
      queue = createCommitQueue(store, { instanceId: this.instanceId });
      this.queues.set(store, queue);
    }
    return queue;
  }
}

const key = Symbol.for("wirescope.runs");
type Holder = { [key]?: RunRegistry };

/**
 * The process's one registry. Kept on `globalThis` because Next bundles each route on its
 * own: a module-level instance would give the stop route a different registry from the one
 * that started the run.
 */
export function runRegistry(): RunRegistry {
  const holder = globalThis as Holder;
  holder[key] ??= withLiveExport(
    new RunRegistry({ bufferBytes: VIEWER_BUFFER_BYTES, maxLagBytes: VIEWER_MAX_LAG_BYTES }),
  );
  return holder[key];
}
