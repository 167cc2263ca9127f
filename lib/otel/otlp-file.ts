import type { PagedTranscript } from "../store/paged-transcript";
import type { Store, Transcript } from "../store/store";
import { otlpRedactor } from "./install";
import { otlpJson } from "./otlp-json";
import type { PlanOptions } from "./span-plan";
import { pagedRunSpans, transcriptSpans } from "./transcript-spans";

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
 * The file `GET /api/transcripts/:id/export?format=otlp` downloads, a run at a time
 * (`pagedRunSpans`): each run's spans are serialized by the SDK on their own and written into
 * the one request's span list. Holds one run.
 * Content only when asked, redacted.
 */
export async function* otlpFileParts(
  store: Pick<Store, "getRunInfo">,
  transcript: PagedTranscript,
  options: { content: boolean },
  env: Env = process.env,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let layout: Layout | undefined;
  for await (const spans of pagedRunSpans(store, transcript, planOptions(options, env))) {
    if (spans.length === 0) continue;
    const text = decoder.decode(otlpJson(spans));
    const first = layout === undefined;
    layout ??= layoutOf(text);
    yield `${first ? layout.head : ","}${spanItems(text, layout)}`;
  }
  yield layout === undefined ? EMPTY_REQUEST : layout.tail;
}

function planOptions(options: { content: boolean }, env: Env): PlanOptions {
  return { content: options.content, redact: otlpRedactor(env) };
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
