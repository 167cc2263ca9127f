/** Building and checking transcript metadata, shared by every store. */
import { DIALECTS } from "../protocol";
import { StoreError } from "./errors";
import {
  type CreateTranscriptInput,
  DEFAULT_TITLE,
  TRANSCRIPT_SOURCES,
  type TranscriptMeta,
  type TranscriptSummary,
} from "./store";

/**
 * The metadata a new transcript gets. Rejects input no caller should send (routes validate
 * user input with zod first), so a bug shows up here rather than as a broken row.
 */
export function newTranscriptMeta(
  input: CreateTranscriptInput,
  id: string,
  now: number,
): TranscriptMeta {
  if (!DIALECTS.includes(input.dialect)) {
    throw new StoreError("invalid", `Unknown dialect ${JSON.stringify(input.dialect)}.`);
  }
  if (input.source !== undefined && !TRANSCRIPT_SOURCES.includes(input.source)) {
    throw new StoreError("invalid", `Unknown source ${JSON.stringify(input.source)}.`);
  }
  if (input.forkPoint !== undefined) {
    if (input.parentId === undefined) {
      throw new StoreError("invalid", "forkPoint needs a parentId: it is a seq of the parent.");
    }
    if (!Number.isSafeInteger(input.forkPoint) || input.forkPoint < 0) {
      throw new StoreError("invalid", "forkPoint must be a seq: an integer ≥ 0.");
    }
  }
  const meta: TranscriptMeta = {
    id,
    title: checkTitle(input.title ?? DEFAULT_TITLE),
    createdAt: now,
    updatedAt: now,
    dialect: input.dialect,
    model: { provider: input.model.provider, id: input.model.id },
    system: input.system ?? "",
    tools: [...(input.tools ?? [])],
    source: input.source ?? "playground",
  };
  if (input.parentId !== undefined) meta.parentId = input.parentId;
  if (input.forkPoint !== undefined) meta.forkPoint = input.forkPoint;
  if (input.definition !== undefined) meta.definition = input.definition;
  return meta;
}

/** A title as stored (`normalizeTitle`); one with nothing visible left is refused. */
export function checkTitle(title: string): string {
  const normalized = normalizeTitle(title);
  if (normalized === undefined)
    throw new StoreError("invalid", "A transcript title cannot be empty.");
  return normalized;
}

/**
 * A title safe to store and show: lone surrogates become U+FFFD, control characters (NUL
 * included) become spaces, bidirectional overrides are dropped (they can make a title read
 * backwards), whitespace runs become one space, the ends are trimmed. `undefined` when nothing
 * visible is left: a title of zero-width characters only would show as an empty row. Zero-width
 * characters at the ends go too; inside they stay (emoji sequences are joined with them).
 */
export function normalizeTitle(title: string): string | undefined {
  const normalized = title
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd")
    .normalize("NFC")
    .replace(/\p{Cc}+/gu, " ")
    .replace(/[\u202a-\u202e\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ")
    .replace(/^[\s\u200b-\u200f\u2060-\u2064\ufeff]+|[\s\u200b-\u200f\u2060-\u2064\ufeff]+$/g, "");
  // Invisible: format characters, spaces, Hangul fillers and the combining grapheme joiner.
  const visible = normalized
    .replace(/[\p{Cf}\p{Z}\u115f\u1160\u3164\uffa0]/gu, "")
    .replaceAll("\u034f", "");
  return visible === "" ? undefined : normalized;
}

/**
 * A conversation's title from the message that started it, as the server stores it and the
 * page shows it until then: its first visible line, normalized, cut to 58 after 60.
 */
export function titleFromMessage(message: string): string {
  // Normalized first: a message of zero-width characters has no visible first line.
  const line = normalizeTitle(message.trim().split("\n")[0] ?? "") ?? "";
  return (line.length > 60 ? cutTitle(line, 58) : line) || DEFAULT_TITLE;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * `title` cut to at most `max` UTF-16 units, the last an ellipsis, and never inside a grapheme:
 * half a surrogate pair was stored as U+FFFD, half a joined emoji showed as another one.
 */
export function cutTitle(title: string, max: number): string {
  if (title.length <= max) return title;
  let end = 0;
  // Only the start can be kept: segmenting a 30 MB title whole took 7 s. A cluster running past
  // the cut ends the title either way, so cutting the text first changes nothing kept.
  for (const { segment } of graphemes.segment(title.slice(0, max + 1))) {
    if (end + segment.length > max - 1) break;
    end += segment.length;
  }
  // A first grapheme longer than the title may be (a letter under a hundred accents): by code
  // points, never half a surrogate pair.
  if (end === 0) {
    end = max - 1;
    if (/[\ud800-\udbff]/.test(title.charAt(end - 1))) end--;
  }
  return `${title.slice(0, end)}…`;
}

export function toSummary(meta: TranscriptMeta, recordCount: number): TranscriptSummary {
  const { system: _system, tools: _tools, ...rest } = meta;
  return { ...rest, recordCount };
}
