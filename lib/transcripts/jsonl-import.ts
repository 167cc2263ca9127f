/**
 * Importing a transcript file as it arrives: bytes are decoded and split into lines, each line
 * is validated (`validateLine`) and its record written in batches, so a file of any size
 * within the limit costs memory for one line and one batch, not the whole file. The
 * transcript stays hidden (soft-deleted) until the last line is in; a refused file leaves
 * nothing visible. Every 10 ms of work it gives the event loop a turn (`loop-turns.ts`).
 */
import type { Store, TranscriptMeta } from "../store/store";
import { EventIds } from "./event-ids";
import type { FileRecord, TranscriptHeader } from "./header";
import {
  DEFAULT_JSONL_LIMITS,
  exceedsUtf8,
  formatBytes,
  type JsonlError,
  type JsonlLimits,
} from "./jsonl";
import { validateLine } from "./jsonl-line";
import { type LoopTurns, loopTurns } from "./loop-turns";
import { requestResolver } from "./request-refs";
import { abandonImport, beginImport, finishImport, type ImportOrigin } from "./store-actions";
import { decodedText } from "./text-stream";

/** Records per `appendRecords` call (and one run id per call). */
const BATCH = 1000;
/**
 * Characters of lines per `appendRecords` call at most: the store writes a batch in one go,
 * holding the event loop meanwhile (1,000 lines of 10 KB would hold it for a second).
 */
const BATCH_CHARS = 256 * 1024;

export type StreamImportResult =
  | { ok: true; meta: TranscriptMeta; origin: ImportOrigin; records: number }
  | { ok: false; error: JsonlError };

/** What an import may change on the way in: the server redacts configured keys here. */
export interface ImportCleaner {
  header(header: TranscriptHeader): TranscriptHeader;
  record(record: FileRecord): FileRecord;
  /** A text a title is cut from (a raw import's first line), before it is cut. */
  text?(text: string): string;
}

const KEEP: ImportCleaner = { header: (header) => header, record: (record) => record };

/** How an import is written (both imports: this one and `raw-text-import.ts`). */
export interface StreamImportOptions {
  now?: () => number;
  clean?: ImportCleaner;
  /** Turns of the event loop between slices of work (default every 10 ms: `loop-turns.ts`). */
  turns?: LoopTurns;
  /**
   * The server instance writing it (`runRegistry().instanceId`), kept with the hidden
   * transcript until it is shown: should this server die mid-import, a live instance purges
   * it once this one's lease has ended (`purgeAbandonedImports`). Without it, such an import
   * stays hidden for good.
   */
  instanceId?: string;
}

export async function importJsonlStream(
  store: Store,
  body: ReadableStream<Uint8Array> | null,
  limits: Partial<JsonlLimits> = {},
  options: StreamImportOptions = {},
): Promise<StreamImportResult> {
  const { maxBytes, maxLineBytes } = { ...DEFAULT_JSONL_LIMITS, ...limits };
  const { now = Date.now, clean = KEEP, instanceId } = options;
  const turns = options.turns ?? loopTurns();
  const reader = body?.getReader();
  let started: { meta: TranscriptMeta; origin: ImportOrigin } | undefined;
  let header: TranscriptHeader | undefined;
  let batch: FileRecord[] = [];
  let batchChars = 0;
  let records = 0;
  let number = 0;
  /** The line not ended yet, in the pieces it came in. */
  let pending: string[] = [];
  let pendingLength = 0;
  const resolve = requestResolver();
  const ids = new EventIds();

  const flush = async () => {
    if (started === undefined || batch.length === 0) return;
    const runId = batch[0]?.runId ?? "imported";
    const stripped = batch.map(({ runId: _runId, ...record }) => record);
    batch = [];
    batchChars = 0;
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
      started = await beginImport(store, header, now, instanceId);
      return undefined;
    }
    const resolved = resolve(parsed.record, records + 1);
    if (!resolved.ok) return lineError("invalid", resolved.message, number);
    const repeated = ids.check(resolved.record, number);
    if (repeated !== undefined) return lineError("invalid", repeated, number);
    const runId = resolved.record.runId ?? "imported";
    if (
      batch.length >= BATCH ||
      batchChars >= BATCH_CHARS ||
      (batch.length > 0 && (batch[0]?.runId ?? "imported") !== runId)
    )
      await flush();
    batch.push(clean.record(resolved.record));
    batchChars += line.length;
    records++;
    return undefined;
  };

  const refuse = async (error: JsonlError): Promise<StreamImportResult> => {
    await reader?.cancel().catch(() => {});
    if (started !== undefined) await abandonImport(store, started.meta.id);
    return { ok: false, error };
  };

  try {
    for await (const piece of decodedText(reader, maxBytes, "body: the file is not UTF-8 text.")) {
      if (!piece.ok) return await refuse(piece.error);
      // Only the new text is searched for line ends, and an unfinished line is kept in parts:
      // a line of many pieces costs its length once, not once per piece.
      let text = piece.text;
      for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n")) {
        const line =
          pending.length === 0
            ? text.slice(0, newline)
            : [...pending, text.slice(0, newline)].join("");
        pending = [];
        pendingLength = 0;
        const error = await take(line);
        if (error !== undefined) return await refuse(error);
        await turns();
        text = text.slice(newline + 1);
      }
      if (text !== "") {
        pending.push(text);
        pendingLength += text.length;
      }
      // A UTF-16 unit is at least one byte: a longer tail is over the limit already.
      if (pendingLength > maxLineBytes) return await refuse(tooLongLine(number + 1, maxLineBytes));
      if (piece.done) break;
    }
    if (pendingLength > 0) {
      const error = await take(pending.join(""));
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
    if (started !== undefined) await abandonImport(store, started.meta.id);
    throw error;
  }
}

function lineError(reason: JsonlError["reason"], message: string, line: number): JsonlError {
  return { reason, message: `line ${line}: ${message}`, line };
}

function tooLongLine(line: number, maxLineBytes: number): JsonlError {
  return lineError("too_large", `is longer than the limit of ${formatBytes(maxLineBytes)}`, line);
}
