import type { ReadableSpan } from "@opentelemetry/sdk-trace-base";
import type { PagedTranscript } from "../store/paged-transcript";
import type { Store, StoredRecord, Transcript, TranscriptMeta } from "../store/store";
import { planRun } from "./run-plan";
import { sdkSpans, wirescopeResource } from "./sdk-spans";
import type { PlannedSpan, PlanOptions, RunInput } from "./span-plan";

/** A transcript's records split by run, in the order the runs first appear. */
export function runsOf(records: readonly StoredRecord[]): RunInput[] {
  const runs = new Map<string, StoredRecord[]>();
  for (const record of records) {
    const list = runs.get(record.runId);
    if (list === undefined) runs.set(record.runId, [record]);
    else list.push(record);
  }
  return [...runs].map(([runId, list]) => ({ runId, records: list }));
}

/** Every run's plan, one trace each, with the start and end the store noted for the run. */
export async function planTranscript(
  store: Pick<Store, "getRunInfo">,
  transcript: Transcript,
  options: PlanOptions,
): Promise<PlannedSpan[]> {
  const plans: PlannedSpan[] = [];
  for (const run of runsOf(transcript.records)) {
    const timed = await withRunTimes(store, transcript.meta.id, run);
    plans.push(...planRun(transcript.meta, timed, options));
  }
  return plans;
}

/** One finished run's spans, read from the store (what live export sends). */
export async function runSpans(
  store: Pick<Store, "getRunInfo" | "listRunRecords">,
  meta: TranscriptMeta,
  runId: string,
  options: PlanOptions,
): Promise<ReadableSpan[]> {
  const records = await store.listRunRecords(meta.id, runId, 0);
  const run = await withRunTimes(store, meta.id, { runId, records });
  return sdkSpans(planRun(meta, run, options));
}

export async function transcriptSpans(
  store: Pick<Store, "getRunInfo">,
  transcript: Transcript,
  options: PlanOptions,
): Promise<ReadableSpan[]> {
  return sdkSpans(await planTranscript(store, transcript, options));
}

/**
 * `transcriptSpans` of a paged transcript, a run at a time (each run's spans, in the order the
 * runs first appear, all with one resource): one walk finds where each run ends, a second
 * gathers each run's records and plans it once its last record is read. Holds the runs that
 * are not finished where the walk is (one, unless runs interleave).
 */
export async function* pagedRunSpans(
  store: Pick<Store, "getRunInfo">,
  transcript: PagedTranscript,
  options: PlanOptions,
): AsyncGenerator<ReadableSpan[]> {
  const { meta } = transcript;
  const resource = wirescopeResource();
  const ends = await runEnds(transcript);
  const order = [...ends.keys()];
  const open = new Map<string, StoredRecord[]>();
  let next = 0;
  for await (const page of transcript.pages()) {
    for (const record of page) {
      const list = open.get(record.runId);
      if (list === undefined) open.set(record.runId, [record]);
      else list.push(record);
    }
    const read = page.at(-1)?.seq ?? 0;
    for (; next < order.length && (ends.get(order[next] as string) ?? 0) <= read; next++) {
      const runId = order[next] as string;
      const records = open.get(runId) ?? [];
      open.delete(runId);
      const run = await withRunTimes(store, meta.id, { runId, records });
      yield sdkSpans(planRun(meta, run, options), resource);
    }
  }
}

/** Each run's last `seq`, in the order the runs first appear (as `runsOf`). */
async function runEnds(transcript: PagedTranscript): Promise<Map<string, number>> {
  const ends = new Map<string, number>();
  for await (const page of transcript.pages())
    for (const record of page) ends.set(record.runId, record.seq);
  return ends;
}

/** Runs' spans gathered into batches of about `maxSpans` (whole runs; a longer run alone). */
export async function* spanBatches(
  runs: AsyncIterable<ReadableSpan[]>,
  maxSpans: number,
): AsyncGenerator<ReadableSpan[]> {
  let batch: ReadableSpan[] = [];
  for await (const spans of runs) {
    if (batch.length > 0 && batch.length + spans.length > maxSpans) {
      yield batch;
      batch = [];
    }
    batch.push(...spans);
  }
  if (batch.length > 0) yield batch;
}

/** The run with the start and end the store noted for it, when it is this transcript's. */
export async function withRunTimes(
  store: Pick<Store, "getRunInfo">,
  transcriptId: string,
  run: RunInput,
): Promise<RunInput> {
  // An imported transcript keeps its run ids, but the store never saw those runs start (and a
  // file could name another transcript's run).
  const info = await store.getRunInfo(run.runId).catch(() => null);
  if (info === null || info.transcriptId !== transcriptId) return run;
  return { ...run, startedAt: info.startedAt, endedAt: info.endedAt };
}
