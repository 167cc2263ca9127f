/**
 * What transcript search looks at, shared by every store so they all find the same things.
 * Search is a case-insensitive substring match over the title and over user and respond
 * contents. Respond pieces (one block streamed as several events sharing an id) are
 * concatenated per block, so a word split across pieces is still found.
 */
import { assertNever, type ProtocolEvent } from "../protocol";
import type { TranscriptRecord } from "./store";

/**
 * Case folding for search, applied to stored text and to queries alike. Folding pieces one by
 * one equals folding their concatenation except for context-dependent letters (Greek final
 * sigma), which is acceptable for a search box.
 */
export function foldForSearch(text: string): string {
  // NUL as U+FFFD: SQL counts characters up to a NUL (SQLite) or cannot hold one (PostgreSQL).
  return text.normalize("NFC").toLowerCase().replaceAll("\u0000", "\ufffd");
}

/** A query worth running, or `undefined` for "match everything". */
export function normalizeQuery(query: string | undefined): string | undefined {
  const trimmed = query?.trim() ?? "";
  return trimmed === "" ? undefined : foldForSearch(trimmed);
}

/** Why a search found a transcript whose title does not match: the matched text in context. */
export interface SearchMatch {
  before: string;
  /** The matched text (folded, like the rest of the snippet). */
  text: string;
  after: string;
}

/** Characters of context each side of a match. */
export const SNIPPET_RADIUS = 40;

/**
 * The snippet around the first match of a folded `query` in folded `text` (stores hand in the
 * block, or a window of it at least `SNIPPET_RADIUS` wide each side), whitespace collapsed,
 * cut at the radius with "…". `undefined` when it does not occur.
 */
export function matchSnippet(text: string, query: string): SearchMatch | undefined {
  const at = text.indexOf(query);
  if (at === -1 || query === "") return undefined;
  const from = Math.max(0, at - SNIPPET_RADIUS);
  const to = Math.min(text.length, at + query.length + SNIPPET_RADIUS);
  const flat = (piece: string) => piece.replace(/\s+/g, " ");
  return {
    before: (from > 0 ? "…" : "") + flat(text.slice(from, at)).trimStart(),
    text: flat(text.slice(at, at + query.length)),
    after: flat(text.slice(at + query.length, to)).trimEnd() + (to < text.length ? "…" : ""),
  };
}

export interface SearchPiece {
  /** Identifies the block: parser ids restart per parser, so run and turn are part of it. */
  blockKey: string;
  /** Folded text to append to the block. */
  text: string;
}

/**
 * How much of one block (a user message, a response) is searchable, in characters. Each piece
 * is appended to its block's text; without a bound, a response of megabytes (an import of a
 * long raw text) re-copied its growing text on every piece: quadratic, seconds per megabyte.
 */
export const SEARCH_BLOCK_MAX = 65_536;

/** The searchable text a record adds, if any. */
export function searchPiece(runId: string, record: TranscriptRecord): SearchPiece | undefined {
  if (record.kind !== "event") return undefined;
  const content = searchableContent(record.event);
  if (content === undefined || content === "") return undefined;
  const turn = "turn" in record.event ? (record.event.turn ?? "") : "";
  return {
    blockKey: JSON.stringify([runId, turn, record.event.type, record.event.id]),
    text: foldForSearch(content),
  };
}

function searchableContent(event: ProtocolEvent): string | undefined {
  switch (event.type) {
    case "user":
    case "respond":
      return event.content;
    case "think":
    case "call":
    case "execute":
    case "result":
    case "end":
    case "metric":
    case "error":
    case "interrupt":
      return undefined;
    default:
      return assertNever(event, "event type");
  }
}
