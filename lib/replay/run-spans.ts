import type { TranscriptRun } from "../store/store";
import { isParserKind } from "./parser-events";
import { RUN_GAP_MS } from "./timeline";

/**
 * What replay needs to know of a run (`TranscriptRun`: records in a row with one run id, from
 * a user message or a run id change) to time it without its records: `exactDuration`.
 */
export interface RunSpan {
  runId: string;
  firstSeq: number;
  lastSeq: number;
  /** Its opening user message's timestamp; null when it opens without one. */
  startedAt: number | null;
  /** The greatest `t` of its chunks and requests; null when it has none. */
  lastT: number | null;
  /**
   * The latest timestamp (> 0) of the runtime's events after its last chunk or request (the
   * parser's are re-derived by replay, never later than a chunk's `t` or a metric); null: none.
   */
  lastAt: number | null;
}

export function runSpanOf(run: TranscriptRun): RunSpan {
  let lastAt: number | null = null;
  for (const kind of run.tail)
    if (!isParserKind(kind) && kind.at > 0) lastAt = Math.max(lastAt ?? kind.at, kind.at);
  const { runId, firstSeq, lastSeq, startedAt, lastT } = run;
  return { runId, firstSeq, lastSeq, startedAt, lastT, lastAt };
}

/**
 * The replay's whole length, as `buildTimeline` times the records, from their runs' spans alone,
 * when every run is a group of its own (runs one after another): a run lasts from its start to
 * the latest of its chunks' and requests' `t` and its runtime events after its last one (their
 * time since its user message; an event before a chunk is held at or before that chunk's `t`),
 * and runs follow each other after `RUN_GAP_MS`. `after`: the records up to `seq` are planned,
 * a group ends there, `at` ms into the replay; the runs after it follow.
 *
 * Undefined when the runs after `after` interleave (a run that comes back after another began:
 * calls made at the same time, placed by each record's own time), or `after` is not where a
 * run begins: then only the records can tell.
 */
export function exactDuration(
  spans: readonly RunSpan[],
  after: { seq: number; at: number } = { seq: 0, at: 0 },
): number | undefined {
  let end: number | undefined = after.seq === 0 ? undefined : after.at;
  let next = after.seq + 1;
  const seen = new Set<string>();
  for (const span of spans) {
    if (span.lastSeq <= after.seq) continue;
    if (span.firstSeq !== next) return undefined;
    // Without a user message, a run id seen before is that run going on: runs interleave.
    if (span.startedAt === null && seen.has(span.runId)) return undefined;
    seen.add(span.runId);
    next = span.lastSeq + 1;
    end = (end === undefined ? 0 : end + RUN_GAP_MS) + lengthOf(span);
  }
  return end ?? 0;
}

/** How long a run that is a group of its own lasts on the replay's clock. */
function lengthOf(span: RunSpan): number {
  let length = 0;
  if (span.lastT !== null && Number.isFinite(span.lastT)) length = Math.max(length, span.lastT);
  const { startedAt, lastAt } = span;
  if (startedAt !== null && startedAt > 0 && lastAt !== null)
    length = Math.max(length, lastAt - startedAt);
  return length;
}
