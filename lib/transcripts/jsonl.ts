import type { StoredRecord, TranscriptMeta } from "../store/store";
import { EventIds } from "./event-ids";
import type { FileSummary } from "./file-summary";
import {
  type ExportableTranscript,
  type FileRecord,
  fileRecordOf,
  headerOf,
  type TranscriptFile,
  type TranscriptHeader,
} from "./header";
import { validateLine } from "./jsonl-line";
import { requestCompactor, requestResolver } from "./request-refs";

export interface JsonlLimits {
  /** Largest file in UTF-8 bytes (default 1 GiB: imports stream, so this bounds time, not memory). */
  maxBytes: number;
  /** Longest line in UTF-8 bytes (default 64 MiB: a request line holds a whole context). */
  maxLineBytes: number;
}

export const DEFAULT_JSONL_LIMITS: JsonlLimits = {
  maxBytes: 1024 * 1024 * 1024,
  maxLineBytes: 64 * 1024 * 1024,
};

/**
 * The limits for imports of at most `megabytes` (`WIRESCOPE_IMPORT_MAX_MB`, default 1024): a
 * line stays within 64 MiB, or the file limit when that is smaller.
 */
export function importLimits(megabytes: number): JsonlLimits {
  const maxBytes = Math.round(megabytes * 1024 * 1024);
  return { maxBytes, maxLineBytes: Math.min(maxBytes, DEFAULT_JSONL_LIMITS.maxLineBytes) };
}

/** Why a file was refused: `line` is 1-based, absent when the file as a whole is wrong. */
export interface JsonlError {
  reason: "too_large" | "invalid";
  message: string;
  line?: number;
}

export type JsonlResult = { ok: true; file: TranscriptFile } | { ok: false; error: JsonlError };

/**
 * A transcript as JSONL (docs/transcript-file.md): the header line, then one record a line, `\n` after each.
 * A request repeating an earlier one's messages refers to them (`request-refs.ts`).
 */
export function exportJsonl(
  transcript: ExportableTranscript,
  options: { summary?: FileSummary } = {},
): string {
  const writer = jsonlWriter(transcript.meta, options);
  return writer.header + writer.lines(transcript.records);
}

/**
 * `exportJsonl` a page at a time: the header line, then each page's lines. The pages must
 * share message values the way one read does (`Store.readRecordPages`), or fewer requests
 * refer to earlier ones than `exportJsonl` of the same records writes.
 */
export async function* jsonlParts(
  meta: TranscriptMeta,
  pages: AsyncIterable<readonly (FileRecord | StoredRecord)[]>,
  options: { summary?: FileSummary } = {},
): AsyncGenerator<string> {
  const writer = jsonlWriter(meta, options);
  yield writer.header;
  for await (const page of pages) if (page.length > 0) yield writer.lines(page);
}

/** The header line, then record lines numbered on from one call to the next. */
function jsonlWriter(meta: TranscriptMeta, options: { summary?: FileSummary }) {
  const header = headerOf(meta);
  if (options.summary !== undefined) header.summary = options.summary;
  const compact = requestCompactor();
  let number = 0;
  return {
    header: `${JSON.stringify(header)}\n`,
    lines: (records: readonly (FileRecord | StoredRecord)[]) =>
      records
        .map((record) => `${JSON.stringify(compact(fileRecordOf(record), ++number))}\n`)
        .join(""),
  };
}

/**
 * Reads a transcript file, validating every line; the first bad line refuses the whole file
 * with its number and the reason (`line 7: event.type: Invalid option: …`). Never throws on
 * input. Blank lines are skipped (they still count for line numbers); `\r\n` and a leading
 * byte-order mark are accepted.
 */
export function parseJsonl(text: string, limits: Partial<JsonlLimits> = {}): JsonlResult {
  const { maxBytes, maxLineBytes } = { ...DEFAULT_JSONL_LIMITS, ...limits };
  if (exceedsUtf8(text, maxBytes)) {
    return refuse(
      "too_large",
      `body: the file is larger than the limit of ${formatBytes(maxBytes)}.`,
    );
  }
  let header: TranscriptHeader | undefined;
  const records: FileRecord[] = [];
  const resolve = requestResolver();
  const ids = new EventIds();
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let number = 1; start <= text.length; number++) {
    const newline = text.indexOf("\n", start);
    const stop = newline === -1 ? text.length : newline;
    const line = text.slice(start, text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop);
    start = stop + 1;
    if (line.trim() === "") continue;
    if (exceedsUtf8(line, maxLineBytes)) {
      return refuse(
        "too_large",
        `is longer than the limit of ${formatBytes(maxLineBytes)}`,
        number,
      );
    }
    const parsed = validateLine(line, header === undefined);
    if (!parsed.ok) return refuse("invalid", parsed.message, number);
    if (parsed.kind === "header") header = parsed.header;
    else {
      const resolved = resolve(parsed.record, records.length + 1);
      if (!resolved.ok) return refuse("invalid", resolved.message, number);
      const repeated = ids.check(resolved.record, number);
      if (repeated !== undefined) return refuse("invalid", repeated, number);
      records.push(resolved.record);
    }
  }
  if (header === undefined) {
    return refuse(
      "invalid",
      'body: the file is empty: a transcript starts with a header line {"format":"wirescope-transcript",…}.',
    );
  }
  return { ok: true, file: { header, records } };
}

function refuse(reason: JsonlError["reason"], message: string, line?: number): JsonlResult {
  if (line === undefined) return { ok: false, error: { reason, message } };
  return { ok: false, error: { reason, message: `line ${line}: ${message}`, line } };
}

/**
 * Whether `text` takes more than `limit` bytes in UTF-8, counting no further than the limit
 * (a huge input costs no more than that). A lone surrogate counts as the 3 bytes of U+FFFD.
 */
export function exceedsUtf8(text: string, limit: number): boolean {
  // Every UTF-16 unit takes one to three bytes.
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLow(text.charCodeAt(index + 1))) {
      bytes += 4;
      index++;
    } else bytes += 3;
    if (bytes > limit) return true;
  }
  return false;
}

const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}
