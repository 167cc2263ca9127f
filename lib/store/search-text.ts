/**
 * What transcript search looks at, shared by every store so they all find the same things.
 * Search is a case-insensitive substring match over the title and over user and respond
 * contents. Respond pieces (one block streamed as several events sharing an id, §3) are
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

/**
 * The SQL stores keep a block's text in parts of at most this many characters, and an append
 * extends only the last part: a part stays inside its table's page. Rewriting the whole block
 * on every commit made a streamed response's search text cost the square of its length (each
 * commit of 300 live runs rewrote every growing block: `bench/live-store.ts 300 400 100` spent
 * 86–93 µs a record, 31–33 in parts). Every part but a block's last is full.
 */
export const SEARCH_PART_CHARS = 512;
/** Parts a block may have: `SEARCH_BLOCK_MAX` characters. */
export const SEARCH_PARTS_MAX = SEARCH_BLOCK_MAX / SEARCH_PART_CHARS;
/**
 * Each part after a block's first also holds the last this many characters of the part before
 * (its `lead`), so a query up to one character longer is found across a cut in one row; a
 * longer one is looked for in whole blocks, their parts joined (slower: `bench/search.ts`).
 */
export const SEARCH_LEAD_CHARS = 63;

/**
 * A block's last stored part: its number (from 0), its length in characters and its last
 * `SEARCH_LEAD_CHARS` characters.
 */
export interface SearchPartEnd {
  part: number;
  length: number;
  tail: string;
}

/** How a piece of a block's text is stored: added to the last part, then in new parts. */
export interface SearchPartWrites {
  /** Text for the end of the last part (`""`: none). */
  extend: string;
  added: { part: number; text: string; lead: string }[];
}

/**
 * Where `text`, the next piece of a block whose last part is `last` (none yet: `undefined`),
 * goes. Lengths are in characters (code points, as SQL counts them), and no cut falls inside
 * one: a part never ends in half a surrogate pair. Past `SEARCH_BLOCK_MAX` nothing is kept.
 */
export function searchPartWrites(text: string, last: SearchPartEnd | undefined): SearchPartWrites {
  let at = 0;
  let extend = "";
  if (last !== undefined && last.length < SEARCH_PART_CHARS) {
    at = afterChars(text, 0, SEARCH_PART_CHARS - last.length);
    extend = text.slice(0, at);
  }
  const added: SearchPartWrites["added"] = [];
  let part = (last?.part ?? -1) + 1;
  let before = last === undefined ? "" : last.tail + extend;
  while (at < text.length && part < SEARCH_PARTS_MAX) {
    const end = afterChars(text, at, SEARCH_PART_CHARS);
    const partText = text.slice(at, end);
    added.push({ part, text: partText, lead: lastChars(before, SEARCH_LEAD_CHARS) });
    before = partText;
    at = end;
    part++;
  }
  return { extend, added };
}

/** The last `count` characters of `text` (never half a surrogate pair). */
function lastChars(text: string, count: number): string {
  let at = text.length;
  for (let left = count; left > 0 && at > 0; left--) {
    const code = text.charCodeAt(at - 1);
    const low = code >= 0xdc00 && code <= 0xdfff && at > 1;
    const previous = low ? text.charCodeAt(at - 2) : 0;
    at -= low && previous >= 0xd800 && previous <= 0xdbff ? 2 : 1;
  }
  return text.slice(at);
}

/** The index just past `count` characters of `text` from `from` (or its end). */
function afterChars(text: string, from: number, count: number): number {
  let at = from;
  for (let left = count; left > 0 && at < text.length; left--) {
    const code = text.charCodeAt(at);
    const pair = code >= 0xd800 && code <= 0xdbff && at + 1 < text.length;
    const next = pair ? text.charCodeAt(at + 1) : 0;
    at += pair && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return at;
}

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
