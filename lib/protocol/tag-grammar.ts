/**
 * What a tag dialect is to the tag parser (`tag-parser.ts`): its markers, what text outside a
 * block means, and what becomes of a closed JSON block.
 */
import type { Emitter } from "./emitter";
import type { Span } from "./events";
import type { Marker, Triggers } from "./markers";

export type TextKind = "think" | "respond";
export type JsonKind = "execute" | "results" | "action" | "call";
export type TagKind = TextKind | JsonKind | "end";

/** A closed JSON block, handed to the dialect. */
export interface ClosedBlock {
  kind: JsonKind;
  /** The body between the markers (empty when it grew too large). */
  text: string;
  tooLarge: boolean;
  bodyStart: number;
  /** [start, end) offsets into `text` of each top-level array element. */
  elements: readonly number[];
  /** The whole block, markers included. */
  span: Span;
  /** The attribute text of `<action …>`; null when the tag was not closed with `>`. */
  attributes: string | null;
}

/** What distinguishes the tag dialects (`tags` definitions, `hermes`, `action`) from each other. */
export interface TagGrammar {
  name: string;
  openers: readonly Marker<TagKind>[];
  /** Closing markers by block kind; only kinds that have an opener are ever looked up. */
  closers: Record<TextKind | JsonKind, Marker<TagKind>>;
  /** The characters that can start any opener or closer. */
  triggers: Triggers;
  /** Text outside any block: a `respond` (xml) or a `stray_text` error (action). */
  outsideText: "respond" | "stray";
  /** Whether a second `respond` block in one turn is a `duplicate_response` error. */
  singleResponse: boolean;
  closeJson(emit: Emitter, block: ClosedBlock): void;
  /** Called once at the end of the stream, after every block is closed (hermes: `execute`). */
  finish?(emit: Emitter): void;
}
