import type { PagedTranscript } from "../store/paged-transcript";

/**
 * `JSON.stringify({ meta, records, ...extra })` of a paged transcript, a page at a time: what
 * `GET /api/transcripts/:id` without `limit` answers, never whole in memory.
 */
export async function* transcriptJsonParts(
  transcript: PagedTranscript,
  extra: Record<string, unknown> = {},
): AsyncGenerator<string> {
  yield `{"meta":${JSON.stringify(transcript.meta)},"records":[`;
  let first = true;
  for await (const page of transcript.pages()) {
    if (page.length === 0) continue;
    yield `${first ? "" : ","}${page.map((record) => JSON.stringify(record)).join(",")}`;
    first = false;
  }
  const rest = JSON.stringify(extra);
  yield rest === "{}" ? "]}" : `],${rest.slice(1)}`;
}
