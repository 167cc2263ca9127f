import { type RunStreamRecord, readRunStream } from "./run-stream";

/** How a run's stream went: to the run's end, or cut off (by the server or the network). */
export type FollowOutcome =
  | { kind: "ended"; runId: string | null; count: number }
  | { kind: "failed"; runId: string | null; count: number; message: string }
  /** The transcript was deleted while the run was watched (the server stopped the run). */
  | { kind: "deleted"; runId: string | null; count: number };

export interface FollowOptions {
  /** Opens `GET /api/runs/:runId/events?after=N` (an injected `fetch`, so tests need no server). */
  fetch: (url: string, init?: RequestInit) => Promise<Response>;
  /** Every record of the run, once each, in order (the `run` record included, first). */
  onRecord: (record: RunStreamRecord) => void;
  /** Aborts the viewer only; the run goes on on the server. */
  signal?: AbortSignal;
  /** Waits before attaching again after a failure (attempt from 1). */
  wait: (attempt: number) => Promise<void>;
  /** Attempts in a row that may fail before giving up. */
  attempts?: number;
  /**
   * Attempts in a row that may find no server at all (connection refused) before giving up:
   * more than `attempts`, so a server restarted while the page stays open (`npm start` takes
   * 5–10 s here) is found again and the run shown to its end (with the page's back-off of
   * 250 ms × attempt, 20 attempts wait about 50 s in all).
   */
  unreachableAttempts?: number;
  /**
   * Told why the stream was cut when attaching again is next (`null` once an attach answers
   * again), so the page can say it is reconnecting rather than just "Running…".
   */
  onCut?: (cut: string | null) => void;
}

export const eventsUrl = (runId: string, after: number) =>
  `/api/runs/${encodeURIComponent(runId)}/events?after=${after}`;

/**
 * Follows a run to its end across dropped connections (docs/live-runs.md): reads `first` (the `POST
 * /api/runs` answer, or a first `events` answer), counting the run's records; when the stream
 * is cut off — a `dropped` note from a server whose viewer fell behind, or a network failure —
 * it attaches again from that count, so no record is missed or repeated.
 */
export async function followRun(
  first: Response,
  after: number,
  options: FollowOptions,
): Promise<FollowOutcome> {
  let runId: string | null = null;
  let announced = false;
  let count = after;
  let failures = 0;
  let unreachable = 0;
  let response: Response | null = first;
  const attempts = options.attempts ?? 5;
  const unreachableAttempts = options.unreachableAttempts ?? 20;
  for (;;) {
    let cut: string | null = null;
    if (response === null) {
      cut = "the server could not be reached";
      unreachable++;
    } else if (!response.ok || response.body === null) {
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      // A refused first request is final; a refused reattach means the run is gone.
      return {
        kind: "failed",
        runId,
        count,
        message: body.error ?? `The server answered ${response.status}.`,
      };
    } else {
      unreachable = 0;
      if (failures > 0 || response !== first) options.onCut?.(null);
      try {
        for await (const record of readRunStream(response.body)) {
          if (record.kind === "dropped") {
            cut = "the server dropped this view of the run";
            break;
          }
          if (record.kind === "deleted") return { kind: "deleted", runId, count };
          if (record.kind === "run") {
            runId = record.runId;
            // Every attach starts with the run record; the page needs it once.
            if (announced) continue;
            announced = true;
          } else {
            count++;
            failures = 0;
          }
          options.onRecord(record);
        }
      } catch (error) {
        if (options.signal?.aborted) return { kind: "ended", runId, count };
        cut = error instanceof Error ? error.message : String(error);
      }
    }
    if (cut === null) return { kind: "ended", runId, count };
    const exhausted = response === null ? unreachable > unreachableAttempts : ++failures > attempts;
    if (runId === null || exhausted)
      return {
        kind: "failed",
        runId,
        count,
        message: `The connection to the server failed: ${cut}`,
      };
    options.onCut?.(cut);
    await options.wait(failures + unreachable);
    if (options.signal?.aborted) return { kind: "ended", runId, count };
    response = await options
      .fetch(eventsUrl(runId, count), options.signal ? { signal: options.signal } : {})
      .catch(() => null);
  }
}
