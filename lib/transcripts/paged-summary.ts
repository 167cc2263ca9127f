import { type SummaryOptions, SummaryPasses } from "../metrics/summary-passes";
import type { RunSummary } from "../metrics/types";
import { type PagedTranscript, recordsOf } from "../store/paged-transcript";

/** `summarizeRecords` of a paged transcript: two walks, holding only its turns and calls. */
export async function summarizePages(
  transcript: PagedTranscript,
  options: SummaryOptions = {},
): Promise<RunSummary> {
  const passes = new SummaryPasses(options);
  for await (const record of recordsOf(transcript.pages())) passes.record(record);
  passes.endFirst();
  for await (const record of recordsOf(transcript.pages()))
    if (record.kind === "event") passes.second(record.event);
  return passes.result();
}
