import type { PagedTranscript } from "../store/paged-transcript";
import type { Store, StoredRecord, Transcript } from "../store/store";
import { otlpRedactor } from "./install";
import { liveExportConfig } from "./live-config";
import { otlpJson } from "./otlp-json";
import { planRun } from "./run-plan";
import { sdkSpans, wirescopeResource } from "./sdk-spans";
import type { PlanOptions } from "./span-plan";
import { transcriptSpans, withRunTimes } from "./transcript-spans";

type Env = Record<string, string | undefined>;

/**
 * A transcript as one OTLP/JSON `ExportTraceServiceRequest` (one trace per run), built whole:
 * what `otlpFileParts` streams, byte for byte (its tests compare the two).
 */
export async function otlpFile(
  store: Pick<Store, "getRunInfo">,
  transcript: Transcript,
  options: { content: boolean },
  env: Env = process.env,
): Promise<Uint8Array> {
  const spans = await transcriptSpans(store, transcript, planOptions(options, env));
  return otlpJson(spans);
}

/**
 * The file `GET /api/transcripts/:id/export?format=otlp` downloads, a run at a time: one walk
 * finds where each run's records are, then each run is read, planned and serialized by the
 * SDK on its own, and its spans are written into the one request's span list. Holds one run.
 * Content only when asked, redacted.
 */
export async function* otlpFileParts(
  store: Pick<Store, "getRunInfo">,
  transcript: PagedTranscript,
  options: { content: boolean },
  env: Env = process.env,
): AsyncGenerator<string> {
  const plan = planOptions(options, env);
  const { meta } = transcript;
  const resource = wirescopeResource();
  const decoder = new TextDecoder();
  let layout: Layout | undefined;
  for (const [runId, range] of await runRanges(transcript)) {
    const records: StoredRecord[] = [];
    for await (const page of transcript.pages({ after: range.first - 1, through: range.last }))
      for (const record of page) if (record.runId === runId) records.push(record);
    const run = await withRunTimes(store, meta.id, { runId, records });
    const spans = sdkSpans(planRun(meta, run, plan), resource);
    if (spans.length === 0) continue;
    const text = decoder.decode(otlpJson(spans));
    const first = layout === undefined;
    layout ??= layoutOf(text);
    yield `${first ? layout.head : ","}${spanItems(text, layout)}`;
  }
  yield layout === undefined ? EMPTY_REQUEST : layout.tail;
}

function planOptions(options: { content: boolean }, env: Env): PlanOptions {
  const config = liveExportConfig(env);
  const redact = otlpRedactor(env, config === null || "error" in config ? null : config);
  return { content: options.content, redact };
}

/** Each run's first and last `seq`, in the order the runs first appear (as `runsOf`). */
async function runRanges(
  transcript: PagedTranscript,
): Promise<Map<string, { first: number; last: number }>> {
  const runs = new Map<string, { first: number; last: number }>();
  for await (const page of transcript.pages())
    for (const record of page) {
      const range = runs.get(record.runId);
      if (range === undefined) runs.set(record.runId, { first: record.seq, last: record.seq });
      else range.last = record.seq;
    }
  return runs;
}

/** What the SDK writes for no span at all. */
const EMPTY_REQUEST = '{"resourceSpans":[]}';
const SPANS_KEY = '"spans":[';
/** After the span list: the scope, its list, the resource, its list, the request. */
const AFTER_SPANS = "]}]}]}";

/**
 * The SDK's JSON around the span list. Every run's spans share one resource and one scope,
 * so a request of one run's spans is `head` + its spans + `tail`, and the whole file is `head`,
 * every run's spans joined by commas, `tail`.
 */
interface Layout {
  head: string;
  tail: string;
}

function layoutOf(text: string): Layout {
  const at = text.indexOf(SPANS_KEY);
  if (at === -1 || !text.endsWith(AFTER_SPANS))
    throw new Error(
      "The OTLP serializer's JSON no longer has one resource and scope with a span list; update otlp-file.ts.",
    );
  return { head: text.slice(0, at + SPANS_KEY.length), tail: AFTER_SPANS };
}

function spanItems(text: string, layout: Layout): string {
  if (!text.startsWith(layout.head) || !text.endsWith(layout.tail))
    throw new Error("The OTLP serializer wrote another resource or scope for one run's spans.");
  return text.slice(layout.head.length, text.length - layout.tail.length);
}
