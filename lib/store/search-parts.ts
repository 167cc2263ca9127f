/**
 * How the SQL stores lay out a block's search text (`search-text.ts` says what it is): in parts,
 * so an append never rewrites what a block already holds.
 */
import { SEARCH_BLOCK_MAX } from "./search-text";

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
