import { randomUUID } from "node:crypto";
import { withLiveExport } from "../otel/install";
import type { Store } from "../store";
import { LiveRun } from "./live-run";
import { type CommitQueue, createCommitQueue } from "./record-writer";
import { VIEWER_BUFFER_BYTES, VIEWER_MAX_LAG_BYTES, type ViewerLimits } from "./run-viewer";

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
  controller?: AbortController;
  /** 0 (the default) = never stop a run for having no viewer. */
  stopUnwatchedAfterMs?: number;
  now?: () => number;
}

/** Told when a run's records are stored and its end noted; must return at once (no awaiting). */
export type FinishListener = (run: { transcriptId: string; runId: string }, store: Store) => void;

/**
 * The server's runs in progress (spec §10). Whatever produces a transcript's records — the
 * agent loop (`runs.ts`) or anything else, such as a capture proxy — calls `open`, then
 * `publish` for each record and `finish` at the end; the registry stores them (grouped
 * commits), fans them out to viewers and notes the run's start and end in the store so a
 * server that dies mid-run can mark it when it starts again (`crash-recovery.ts`).
 */
export class RunRegistry {
  private readonly runs = new Map<string, LiveRun>();
  private readonly queues = new WeakMap<Store, CommitQueue>();
  private readonly finishListeners: FinishListener[] = [];

  constructor(private readonly limits: ViewerLimits) {}

  /** Registers a run (and records its start in the store, which may reject). */
  async open(input: OpenRunInput): Promise<LiveRun> {
    const now = input.now ?? Date.now;
    const runId = input.runId ?? randomUUID();
    const startedAt = now();
    await input.store.recordRunStart({ runId, transcriptId: input.transcriptId, startedAt });
    let run: LiveRun | undefined;
    const writer = this.queue(input.store).writer(input.transcriptId, runId, (error) => {
      console.error("wirescope: could not store a record:", describeError(error));
      run?.fail("The transcript could not be saved (storage failed), so the run was stopped.");
    });
    run = new LiveRun({
      runId,
      transcriptId: input.transcriptId,
      startedAt,
      writer,
      stopUnwatchedAfterMs: input.stopUnwatchedAfterMs ?? 0,
      limits: this.limits,
      now,
      ...(input.controller === undefined ? {} : { controller: input.controller }),
    });
    this.runs.set(runId, run);
    return run;
  }

  /** Ends a run: its records are stored, its end noted, and it leaves the active list. */
  async finish(run: LiveRun, store: Store, now: () => number = Date.now): Promise<void> {
    try {
      await run.finish();
      await store.recordRunEnd(run.runId, now()).catch((error: unknown) => {
        console.error("wirescope: could not record a run's end:", describeError(error));
      });
    } finally {
      this.runs.delete(run.runId);
    }
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

  /** A stop request (from any connection); false when no such run is in progress here. */
  stop(runId: string): boolean {
    return this.runs.get(runId)?.stop("user") ?? false;
  }

  private queue(store: Store): CommitQueue {
    let queue = this.queues.get(store);
    if (queue === undefined) {
      queue = createCommitQueue(store);
      this.queues.set(store, queue);
    }
    return queue;
  }
}

/** The error's message and code, never a stack with server paths. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? `${code}: ${error.message}` : error.message;
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
