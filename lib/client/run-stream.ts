import { createParser } from "eventsource-parser";
import type { ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { safeParseJson } from "../protocol/safe-json";
import { utf8DecoderStream } from "../protocol/stream";

/**
 * One SSE record of `POST /api/runs` and `GET /api/runs/:runId/events` (docs/http-api.md, docs/live-runs.md).
 * `dropped` ends the stream of a viewer that fell too far behind the run: attach again from
 * the number of records read so far. `deleted` ends it because the transcript was deleted
 * (its run was stopped): there is nothing to attach to again.
 */
export type RunStreamRecord =
  | { kind: "run"; transcriptId: string; runId: string }
  | { kind: "dropped"; after: number }
  | { kind: "deleted"; transcriptId: string }
  | TranscriptRecord;

/**
 * Reads a run's SSE body into records, in order. A `data:` line that is not JSON becomes an
 * `error` event record instead of being dropped, so a broken stream is visible.
 */
export async function* readRunStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<RunStreamRecord> {
  const queue: RunStreamRecord[] = [];
  let bad = 0;
  const parser = createParser({
    onEvent(message) {
      const parsed = safeParseJson(message.data);
      if (
        parsed.ok &&
        typeof parsed.value === "object" &&
        parsed.value !== null &&
        "kind" in parsed.value
      ) {
        queue.push(parsed.value as RunStreamRecord);
        return;
      }
      const event: ProtocolEvent = {
        type: "error",
        id: `stream-${++bad}`,
        timestamp: Date.now(),
        code: "internal",
        message: "The server sent a record that is not valid JSON.",
        raw: message.data,
      };
      queue.push({ kind: "event", event });
    },
  });
  const reader = body.pipeThrough(utf8DecoderStream()).getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.feed(value);
      while (queue.length > 0) yield queue.shift() as RunStreamRecord;
    }
  } finally {
    reader.releaseLock();
  }
  while (queue.length > 0) yield queue.shift() as RunStreamRecord;
}
