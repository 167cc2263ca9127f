/**
 * Importing a transcript file as it arrives: bytes are decoded and split into lines, each line
 * is validated (`validateLine`) and its record written in batches, so a file of any size
 * within the limit costs memory for one line and one batch, not the whole file. The
 * transcript stays hidden (soft-deleted) until the last line is in; a refused file leaves
 * nothing visible.
 */
import type { Store, TranscriptMeta } from "../store/store";
import type { FileRecord, TranscriptHeader } from "./header";
import {
  DEFAULT_JSONL_LIMITS,
  exceedsUtf8,
  formatBytes,
  type JsonlError,
  type JsonlLimits,
} from "./jsonl";
import { validateLine } from "./jsonl-line";
import { requestResolver } from "./request-refs";
import { beginImport, finishImport, type ImportOrigin } from "./store-actions";
import { decodedText } from "./text-stream";

/** Records per `appendRecords` call (and one run id per call). */
const BATCH = 1000;

export type StreamImportResult =
  | { ok: true; meta: TranscriptMeta; origin: ImportOrigin; records: number }
  | { ok: false; error: JsonlError };

/** What an import may change on the way in: the server redacts configured keys here. */
export interface ImportCleaner {
  header(header: TranscriptHeader): TranscriptHeader;
  record(record: FileRecord): FileRecord;
}

const KEEP: ImportCleaner = { header: (header) => header, record: (record) => record };

export async function importJsonlStream(
  store: Store,
  body: ReadableStream<Uint8Array> | null,
  limits: Partial<JsonlLimits> = {},
  now: () => number = Date.now,
  clean: ImportCleaner = KEEP,
): Promise<StreamImportResult> {
  const { maxBytes, maxLineBytes } = { ...DEFAULT_JSONL_LIMITS, ...limits };
  const reader = body?.getReader();
  let started: { meta: TranscriptMeta; origin: ImportOrigin } | undefined;
  let header: TranscriptHeader | undefined;
  let batch: FileRecord[] = [];
  let records = 0;
  let number = 0;
  let pending = "";
  const resolve = requestResolver();

  const flush = async () => {
    if (started === undefined || batch.length === 0) return;
    const runId = batch[0]?.runId ?? "imported";
    const stripped = batch.map(({ runId: _runId, ...record }) => record);
    batch = [];
    await store.appendRecords(started.meta.id, runId, stripped);
  };

  /** One complete line (its `\n` removed); a refusal or nothing. */
  const take = async (raw: string): Promise<JsonlError | undefined> => {
    number++;
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return undefined;
    if (exceedsUtf8(line, maxLineBytes)) return tooLongLine(number, maxLineBytes);
    const parsed = validateLine(line, header === undefined);
    if (!parsed.ok) return lineError("invalid", parsed.message, number);
    if (parsed.kind === "header") {
      header = clean.header(parsed.header);
      started = await beginImport(store, header, now);
      return undefined;
    }
    const resolved = resolve(parsed.record, records + 1);
    if (!resolved.ok) return lineError("invalid", resolved.message, number);
    const runId = resolved.record.runId ?? "imported";
    if (batch.length >= BATCH || (batch.length > 0 && (batch[0]?.runId ?? "imported") !== runId))
      await flush();
    batch.push(clean.record(resolved.record));
    records++;
    return undefined;
  };

  const refuse = async (error: JsonlError): Promise<StreamImportResult> => {
    await reader?.cancel().catch(() => {});
    // Hidden since it was created; it stays so.
    return { ok: false, error };
  };

  try {
    for await (const piece of decodedText(reader, maxBytes, "body: the file is not UTF-8 text.")) {
      if (!piece.ok) return await refuse(piece.error);
      pending += piece.text;
      let start = 0;
      for (let newline = pending.indexOf("\n"); newline !== -1; ) {
        const error = await take(pending.slice(start, newline));
        if (error !== undefined) return await refuse(error);
        start = newline + 1;
        newline = pending.indexOf("\n", start);
      }
      pending = pending.slice(start);
      // A UTF-16 unit is at least one byte: a longer tail is over the limit already.
      if (pending.length > maxLineBytes) return await refuse(tooLongLine(number + 1, maxLineBytes));
      if (piece.done) break;
    }
    if (pending !== "") {
      const error = await take(pending);
      if (error !== undefined) return await refuse(error);
    }
    if (started === undefined) {
      return {
        ok: false,
        error: {
          reason: "invalid",
          message:
            'body: the file is empty: a transcript starts with a header line {"format":"wirescope-transcript",…}.',
        },
      };
    }
    await flush();
    await finishImport(store, started.meta.id, started.origin);
    return { ok: true, meta: started.meta, origin: started.origin, records };
  } catch (error) {
    await reader?.cancel().catch(() => {});
    throw error;
  }
}

function lineError(reason: JsonlError["reason"], message: string, line: number): JsonlError {
  return { reason, message: `line ${line}: ${message}`, line };
}

function tooLongLine(line: number, maxLineBytes: number): JsonlError {
  return lineError("too_large", `is longer than the limit of ${formatBytes(maxLineBytes)}`, line);
}
