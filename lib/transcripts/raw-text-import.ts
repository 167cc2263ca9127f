/**
 * Importing a raw text file as it arrives (what `POST /api/transcripts/import?format=text`
 * uses): bytes are decoded strictly as UTF-8, the start is held until the dialect is chosen
 * (at most the detection window), then the text goes through `RawTextRecords` and its
 * records are written in batches. The transcript stays hidden until the end, so a refused
 * text leaves nothing visible. A big piece is parsed a slice at a time, the event loop getting
 * a turn every 10 ms of work.
 */
import { DEFAULT_DETECT_WINDOW } from "../protocol/detect";
import type { Dialect } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import type { Store, TranscriptMeta } from "../store/store";
import type { TranscriptHeader } from "./header";
import { DEFAULT_JSONL_LIMITS, type JsonlError } from "./jsonl";
import type { StreamImportOptions } from "./jsonl-import";
import { loopTurns } from "./loop-turns";
import {
  chooseRawDialect,
  type RawDialectChoice,
  RawTextRecords,
  rawRequestRecord,
  titleOfText,
} from "./raw-text";
import { abandonImport, beginImport, finishImport, type ImportOrigin } from "./store-actions";
import { decodedText } from "./text-stream";

/**
 * Records per `appendRecords` call: the store writes a batch in one go, holding the event loop
 * meanwhile (1,000 records of a hermes text, ~450 K characters, held it for 100–260 ms).
 */
const BATCH = 250;
const RUN_ID = "imported";
/** What the parser takes at once: a piece read may be megabytes (`loop-turns.ts`). */
const FEED_CHARS = 16 * 1024;

export interface RawTextImportOptions extends StreamImportOptions {
  /** Largest text in UTF-8 bytes (the JSONL import's file limit). */
  maxBytes?: number;
  /** A built-in dialect to parse with; detected from the text when absent. */
  dialect?: Dialect;
  /** The file's name; the text's first line when absent. */
  title?: string;
}

export type RawTextImportResult =
  | {
      ok: true;
      meta: TranscriptMeta;
      origin: ImportOrigin;
      records: number;
      choice: RawDialectChoice;
    }
  | { ok: false; error: JsonlError };

export async function importRawTextStream(
  store: Store,
  body: ReadableStream<Uint8Array> | null,
  options: RawTextImportOptions = {},
): Promise<RawTextImportResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_JSONL_LIMITS.maxBytes;
  const now = options.now ?? Date.now;
  const turns = options.turns ?? loopTurns();
  const clean = options.clean;
  const reader = body?.getReader();
  let head = "";
  let converter: RawTextRecords | undefined;
  let started: { meta: TranscriptMeta; origin: ImportOrigin } | undefined;
  let batch: TranscriptRecord[] = [];
  let records = 0;
  let seenText = false;

  const write = async (out: readonly TranscriptRecord[], force: boolean) => {
    for (const record of out) batch.push(clean === undefined ? record : clean.record(record));
    if (started === undefined || (batch.length < BATCH && !force) || batch.length === 0) return;
    records += batch.length;
    const written = batch;
    batch = [];
    await store.appendRecords(started.meta.id, RUN_ID, written);
  };

  /** Chooses the dialect once enough text is in, creates the transcript, writes the head. */
  const start = async (final: boolean) => {
    const choice = chooseRawDialect(options.dialect, head, final);
    if (choice === undefined) return;
    const header: TranscriptHeader = {
      format: "wirescope-transcript",
      version: 1,
      id: "",
      // Redacted before it is cut (`titleOfText`); the header's cleaning comes too late for it.
      title:
        options.title ??
        titleOfText(head, (text) => clean?.text?.(text) ?? text) ??
        "Imported text",
      created: now(),
      dialect: choice.dialect,
      model: { provider: "import", id: "raw-text" },
      system: "",
      tools: [],
    };
    started = await beginImport(
      store,
      clean === undefined ? header : clean.header(header),
      now,
      options.instanceId,
    );
    started.origin.format = "text";
    started.origin.dialect = choice;
    converter = new RawTextRecords(choice, { clock: now });
    const held = head;
    head = "";
    await write([rawRequestRecord(choice)], false);
    await feed(converter, held);
  };

  /** `text` through the converter a slice at a time, the event loop getting its turns. */
  const feed = async (into: RawTextRecords, text: string) => {
    for (let at = 0; at < text.length; at += FEED_CHARS) {
      await write(into.push(text.slice(at, at + FEED_CHARS)), false);
      await turns();
    }
  };

  const refuse = async (error: JsonlError): Promise<RawTextImportResult> => {
    await reader?.cancel().catch(() => {});
    if (started !== undefined) await abandonImport(store, started.meta.id);
    return { ok: false, error };
  };

  try {
    for await (const piece of decodedText(reader, maxBytes, "body: the text is not valid UTF-8.")) {
      if (!piece.ok) return await refuse(piece.error);
      const { text } = piece;
      if (!seenText && text.trim() !== "") seenText = true;
      if (converter === undefined) {
        head += text;
        // Never more than the window held, even of white space (refused as empty at the end).
        if (head.length >= DEFAULT_DETECT_WINDOW) await start(false);
      } else {
        await feed(converter, text);
      }
      if (piece.done) break;
    }
    if (!seenText) return await refuse({ reason: "invalid", message: "body: the text is empty." });
    if (converter === undefined) await start(true);
    if (started === undefined || converter === undefined)
      throw new Error("raw text import: the dialect must be chosen once the text has ended.");
    await write(converter.end(), true);
    await finishImport(store, started.meta.id, started.origin);
    return {
      ok: true,
      meta: started.meta,
      origin: started.origin,
      records,
      choice: converter.choice,
    };
  } catch (error) {
    await reader?.cancel().catch(() => {});
    if (started !== undefined) await abandonImport(store, started.meta.id);
    throw error;
  }
}
