/**
 * A raw text file (a model's wire text copied from a log, not a transcript file) as records:
 * the text is one model turn (turn 0), kept as `chunk` records and parsed into events by the
 * chosen dialect's parser, so the Raw view, timeline, replay and export work on it. Pure and
 * incremental: text goes in as it arrives, records come out, memory stays one chunk plus
 * what the parser holds (bounded by its block limit).
 */
import { DEFAULT_DETECT_WINDOW, detectDialect } from "../protocol/detect";
import type { Dialect } from "../protocol/events";
import { createParser } from "../protocol/parser";
import type { RequestRecord, TranscriptRecord } from "../protocol/records";
import type { Parser } from "../protocol/scanner";
import { cutTitle } from "../store/meta";
import { startOf } from "./title-source";

/** Chunk records hold at most this many UTF-16 code units (4 KiB of ASCII). */
export const RAW_CHUNK_CHARS = 4096;

/** The longest title taken from a text's first line. */
const TITLE_CHARS = 80;

/** How the dialect of a raw text was chosen: kept in the request record and the import reply. */
export interface RawDialectChoice {
  dialect: Dialect;
  /** `query`: named by the client; `detected`: a marker decided; `fallback`: none did. */
  by: "query" | "detected" | "fallback";
  reason: string;
}

/**
 * The dialect for a text whose start is `head`: the named one, else the one whose marker
 * detection finds, else `xml`, saying so. `undefined` while `head` is shorter than the
 * detection window and more text may follow (`final` false): a marker may still come.
 */
export function chooseRawDialect(
  named: Dialect | undefined,
  head: string,
  final: boolean,
): RawDialectChoice | undefined {
  if (named !== undefined) return { dialect: named, by: "query", reason: `named by ?dialect=` };
  const detection = detectDialect(head, { final });
  if (detection.decided)
    return { dialect: detection.dialect, by: "detected", reason: detection.reason };
  if (!final && head.length < DEFAULT_DETECT_WINDOW) return undefined;
  const looked =
    head.length > DEFAULT_DETECT_WINDOW
      ? `the first ${DEFAULT_DETECT_WINDOW} characters show`
      : "the text shows";
  const shared = detection.reason.startsWith("only shared markers")
    ? ` (${detection.reason.slice(0, detection.reason.indexOf(";"))})`
    : "";
  return {
    dialect: detection.dialect,
    by: "fallback",
    reason: `${looked} no marker that only one dialect writes${shared}; parsed as ${detection.dialect}, the default`,
  };
}

/** How much of the first line a title is cut from (`startOf`). */
const TITLE_SOURCE_CHARS = 4096;

/** A title from the text: its first non-blank line, trimmed and cut to 80 characters. */
export function titleOfText(
  text: string,
  redact: (text: string) => string = (same) => same,
): string | undefined {
  for (const line of text.split("\n", 50)) {
    const trimmed = line.trim();
    if (trimmed === "") continue;
    // Redacted before it is cut (a key cut first is not the key redaction looks for), and only
    // the line's start: cutting reads graphemes, and a first line of megabytes (a log without
    // line ends) took 0.5 s per 4 MiB, the server serving nothing else.
    const title = redact(startOf(trimmed, TITLE_SOURCE_CHARS)).trim();
    return title === "" ? undefined : cutTitle(title, TITLE_CHARS);
  }
  return undefined;
}

/** The request record of a raw import: nothing was sent; its settings say how it was read. */
export function rawRequestRecord(choice: RawDialectChoice): RequestRecord {
  return {
    kind: "request",
    turn: 0,
    t: 0,
    provider: "import",
    model: "raw-text",
    messages: [],
    settings: {
      rawImport: { dialect: choice.dialect, chosenBy: choice.by, reason: choice.reason },
    },
  };
}

/**
 * Text → chunk and event records for turn 0, all at `t` 0 (a log has no timing). Chunks are
 * cut at `RAW_CHUNK_CHARS`, never inside a surrogate pair; each chunk is fed to the parser as
 * it is recorded, so a replay of the chunks gives the same events.
 */
export class RawTextRecords {
  private readonly parser: Parser;
  private pending = "";
  private ended = false;

  constructor(
    readonly choice: RawDialectChoice,
    options: { clock?: () => number; chunkChars?: number } = {},
  ) {
    this.clock = options.clock ?? (() => 0);
    this.parser = createParser(choice.dialect, { turn: 0, clock: this.clock });
    this.chunkChars = Math.max(2, options.chunkChars ?? RAW_CHUNK_CHARS);
  }

  private readonly clock: () => number;
  private readonly chunkChars: number;
  private chars = 0;

  push(text: string): TranscriptRecord[] {
    if (this.ended) throw new Error("RawTextRecords.push after end(): make a new one per text.");
    this.pending += text;
    const records: TranscriptRecord[] = [];
    let from = 0;
    while (this.pending.length - from >= this.chunkChars) {
      let to = from + this.chunkChars;
      // A high surrogate at the cut goes with its pair into the next chunk.
      if (isHighSurrogate(this.pending.charCodeAt(to - 1))) to--;
      this.chunk(this.pending.slice(from, to), records);
      from = to;
    }
    this.pending = this.pending.slice(from);
    return records;
  }

  /**
   * The rest of the text, what the parser flushes at the end, then the turn's `metric`, as
   * the agent loop writes them: replay calls `end()` where it finds a turn's metric (a turn
   * without one reads as cut short), so the import replays without differences. Nothing was
   * measured: output tokens are the loop's estimate for providers without usage (a quarter of
   * the characters), input and times 0.
   */
  end(): TranscriptRecord[] {
    if (this.ended) return [];
    this.ended = true;
    const records: TranscriptRecord[] = [];
    if (this.pending !== "") this.chunk(this.pending, records);
    this.pending = "";
    for (const event of this.parser.end()) records.push({ kind: "event", event });
    const output = Math.ceil(this.chars / 4);
    records.push({
      kind: "event",
      event: {
        type: "metric",
        id: "import-metric",
        timestamp: this.clock(),
        turn: 0,
        step: { input: 0, output, durationMs: 0, ttftMs: 0 },
        total: { input: 0, output, durationMs: 0 },
        // Without it the summary takes the metric for one written before sources were
        // recorded and calls its counts `unknown`; they are the loop's estimate.
        tokenSource: "estimate",
      },
    });
    return records;
  }

  private chunk(text: string, records: TranscriptRecord[]): void {
    this.chars += text.length;
    records.push({ kind: "chunk", turn: 0, t: 0, text });
    for (const event of this.parser.feed(text)) records.push({ kind: "event", event });
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** A whole text as records (tests and small inputs): the request record, chunks, events. */
export function rawTextToRecords(
  text: string,
  named?: Dialect,
  options: { clock?: () => number; chunkChars?: number } = {},
): { choice: RawDialectChoice; records: TranscriptRecord[] } {
  const choice = chooseRawDialect(named, text, true) as RawDialectChoice;
  const converter = new RawTextRecords(choice, options);
  return {
    choice,
    records: [rawRequestRecord(choice), ...converter.push(text), ...converter.end()],
  };
}
