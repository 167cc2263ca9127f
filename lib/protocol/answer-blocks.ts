/**
 * Whether a model's answer text, as it streams, is inside one of its dialect's blocks (or a
 * bare response), and where that ends: what `ThinkWriter` needs to write reasoning that comes
 * meanwhile after the block, not inside it (in a response it would show as the answer; split
 * around it, the answer would be two responses). A light reading of the markers, not a parser,
 * but JSON blocks (calls, batches, `<action>`, results) are scanned as the parser scans them
 * (`JsonBody`): a marker inside a JSON string does not end the block, and one such string cut
 * by a raw line break ends it at that marker after all. Pure; holds a marker's start between
 * pieces, and an open JSON block's text as the parser does (up to its block bound).
 */
import { BUILTIN_DEFINITIONS, type DialectDefinition } from "./definition";
import { DEFAULT_MAX_BLOCK } from "./emitter";
import type { Dialect } from "./events";
import { JsonBody } from "./json-body";
import {
  isWhitespace,
  type Marker,
  matchMarker,
  PARTIAL,
  triggersOf,
  wordBoundary,
} from "./markers";

type Spec = Dialect | DialectDefinition;

/**
 * What a marker does: opens a block its `closer` ends (tags; `json`: a JSON body), opens one
 * the next marker ends (delimiter; `json`: a call's or results' JSON), opens `<action …>`'s
 * attributes, or stands alone (`<end>`, `§execute`).
 */
type Role =
  | { closer: Marker; json: boolean }
  | { delimited: true; json: boolean }
  | "action"
  | "alone";

type Mode =
  /** Between blocks; `bare`: text there is one run (`bareIsRun`) and some came. */
  | { kind: "outside"; bare: boolean }
  | { kind: "block"; closer: Marker }
  | { kind: "delimited" }
  /** A JSON body; `delimited`: a delimiter's, which the next marker (not in a string) ends. */
  | { kind: "json"; body: JsonBody<string>; delimited: boolean }
  /** `<action`'s attributes, up to `>` or `{` out of quotes (`quote`: the open one's code). */
  | { kind: "tag"; quote: number };

/** Where the open block ended in what was fed, when reasoning waits for that. */
export interface BlockEnd {
  /** The text up to where the reasoning goes. */
  before: string;
  /** The text from there on, not yet read: feed it again. */
  after: string;
}

/** How the answer stands when nothing more of it comes (`AnswerBlocks.release`). */
export interface Released {
  /** A marker's start held back, out as it is. */
  text: string;
  /** Whether `text` is a marker whole (`§end` at the very end): reasoning goes before it. */
  marker: boolean;
  /**
   * Whether the answer stops inside a block it never closed (`<respond>Hel`, a call's JSON):
   * anything written after it would be read as that block's.
   */
  inside: boolean;
  /** Inside a tag's block: the marker that would close it (`</think>`: the model's own think). */
  closer?: string;
}

export class AnswerBlocks {
  private readonly roles = new Map<string, Role>();
  private readonly openers: Marker[];
  private readonly triggers: ReturnType<typeof triggersOf>;
  /**
   * Whether text outside any block is one run that reasoning would split: a response (xml,
   * hermes, a delimiter's text before any marker or after `§end` / `§execute`), or action's
   * stray text (one `stray_text` error, not two).
   */
  private bareIsRun = true;
  private readonly delimiter: boolean;
  private mode: Mode = { kind: "outside", bare: false };
  /** A marker's start the last piece ended in; `held`: not given back yet. */
  private carry = "";
  private held = false;

  constructor(dialect: Spec) {
    const marker = (text: string): Marker => {
      const boundary = wordBoundary(text);
      return boundary === undefined ? { text, kind: "m" } : { text, kind: "m", boundary };
    };
    const add = (text: string, role: Role) => {
      this.roles.set(text, role);
      return { ...marker(text), kind: text };
    };
    const openers: Marker[] = [];
    if (dialect === "action") {
      for (const [open, close] of [
        ["<thought>", "</thought>"],
        ["<response>", "</response>"],
      ] as const)
        openers.push(add(open, { closer: marker(close), json: false }));
      openers.push(add("<results>", { closer: marker("</results>"), json: true }));
      openers.push({ ...add("<action", "action"), boundary: "tag" });
      this.roles.set("</action>", { closer: marker("</action>"), json: true });
      this.delimiter = false;
    } else {
      const definition = typeof dialect === "string" ? BUILTIN_DEFINITIONS[dialect] : dialect;
      this.delimiter = definition.family === "delimiter";
      if (definition.family === "delimiter") {
        const { think, call, respond, results, execute, end } = definition;
        for (const text of [think, respond])
          openers.push(add(text, { delimited: true, json: false }));
        for (const text of [call, results])
          openers.push(add(text, { delimited: true, json: true }));
        for (const text of [execute, end]) openers.push(add(text, "alone"));
      } else {
        const pairs: [readonly [string, string] | undefined, boolean][] =
          definition.family === "tags"
            ? [
                [definition.think, false],
                [definition.batch, true],
                [definition.respond, false],
                [definition.results, true],
              ]
            : [
                [definition.think, false],
                [definition.call, true],
                [definition.results, true],
              ];
        for (const [pair, json] of pairs)
          if (pair !== undefined) openers.push(add(pair[0], { closer: marker(pair[1]), json }));
        if (definition.family === "tags" && definition.end !== undefined)
          openers.push(add(definition.end, "alone"));
      }
    }
    this.openers = openers;
    const closers = [...this.roles.values()].flatMap((role) =>
      typeof role === "object" && "closer" in role ? [role.closer] : [],
    );
    this.triggers = triggersOf([...openers, ...closers]);
  }

  /**
   * Whether reasoning written now would land inside a block, between pieces of a response, or
   * inside a marker begun at the end of what was fed.
   */
  get open(): boolean {
    return this.mode.kind !== "outside" || this.mode.bare || this.carry !== "";
  }

  /** A think block was written (by the writer, not the model): what follows starts afresh. */
  thought(): void {
    this.mode = { kind: "outside", bare: false };
    // After a delimiter dialect's think, unmarked text is more thinking, not a response.
    if (this.delimiter) this.bareIsRun = false;
  }

  /**
   * Reads `text`. With `waiting` (reasoning waits for the open block to end): where it ends,
   * if it does (`BlockEnd`), else the text safe to write now (a marker's start at the end that
   * would end a response is held: the reasoning goes before it). Without: all of it.
   */
  feed(text: string, waiting: boolean): BlockEnd | string {
    const given = this.held ? 0 : this.carry.length;
    const buffer = this.carry + text;
    this.carry = "";
    this.held = false;
    return this.scan(buffer, given, waiting);
  }

  /**
   * Reads `buffer`, of which the first `given` characters were given out already (a reasoning
   * cannot go before them).
   */
  private scan(buffer: string, given: number, waiting: boolean): BlockEnd | string {
    let at = 0;
    while (at < buffer.length) {
      const mode = this.mode;
      if (mode.kind === "json") {
        const scan = mode.body.scan(buffer, at, false);
        if (scan.kind === "more") {
          if (scan.at < buffer.length) this.carry = buffer.slice(scan.at);
          return buffer.slice(given);
        }
        if (scan.kind === "recover") {
          const again = this.reopen(mode, scan.bodyLength, scan.marker.text.length);
          return this.again(again, buffer, scan.at, given, waiting);
        }
        if (mode.delimited) {
          // The marker opens the next block: read as a delimited block's end below.
          this.mode = { kind: "delimited" };
          at = scan.at;
          continue;
        }
        const end = scan.at + scan.marker.text.length;
        this.mode = { kind: "outside", bare: false };
        if (waiting && end >= given)
          return { before: buffer.slice(given, end), after: buffer.slice(end) };
        at = end;
        continue;
      }
      if (mode.kind === "tag") {
        at = this.attributes(mode, buffer, at);
        continue;
      }
      const next = this.triggers.next(buffer, at);
      const stop = next < 0 ? buffer.length : next;
      if (mode.kind === "outside" && this.bareIsRun && !mode.bare)
        for (let index = at; index < stop; index++)
          if (!isWhitespace(buffer.charCodeAt(index))) mode.bare = true;
      if (next < 0) break;
      const wanted = mode.kind === "block" ? [mode.closer] : this.openers;
      const found = matchMarker(buffer, next, wanted, false);
      if (found === PARTIAL) {
        // A marker that would end a response goes after the reasoning: held till it shows.
        const endsOpen = waiting && mode.kind !== "block" && this.open && next >= given;
        this.carry = buffer.slice(next);
        this.held = endsOpen;
        return buffer.slice(given, endsOpen ? next : buffer.length);
      }
      if (found === null) {
        if (mode.kind === "outside" && this.bareIsRun) mode.bare = true;
        at = next + 1;
        continue;
      }
      const end = next + found.text.length;
      if (mode.kind === "block") {
        this.mode = { kind: "outside", bare: false };
        if (waiting && end >= given)
          return { before: buffer.slice(given, end), after: buffer.slice(end) };
        at = end;
        continue;
      }
      // An opener ends an open response (bare, or a delimiter's block) where it starts; one
      // that began in text already given out cannot have reasoning before it: it waits on.
      if (waiting && this.open && next >= given) {
        this.mode = { kind: "outside", bare: false };
        return { before: buffer.slice(given, next), after: buffer.slice(next) };
      }
      this.open_(found.kind);
      at = end;
    }
    return buffer.slice(given);
  }

  /** The block `opener` (a marker's text) opens. */
  private open_(opener: string): void {
    const role = this.roles.get(opener);
    // After a delimiter's marker, unmarked text belongs to its block; after `§end` /
    // `§execute` it is a response again (the parser's marker-less respond).
    if (this.delimiter) this.bareIsRun = role === "alone";
    if (role === undefined || role === "alone") this.mode = { kind: "outside", bare: false };
    else if (role === "action") this.mode = { kind: "tag", quote: 0 };
    else if (!role.json)
      this.mode = "closer" in role ? { kind: "block", closer: role.closer } : { kind: "delimited" };
    else {
      const closers = "closer" in role ? [role.closer] : this.openers;
      const body = new JsonBody(closers, this.triggers.codes, DEFAULT_MAX_BLOCK);
      this.mode = { kind: "json", body, delimited: !("closer" in role) };
    }
  }

  /**
   * `<action`'s attributes from `at`, as the parser reads them: up to `>` (the body after it)
   * or `{` (the body from it) out of quotes; at `<` the tag is broken and that `<` read again.
   * Where reading goes on.
   */
  private attributes(mode: { kind: "tag"; quote: number }, buffer: string, at: number): number {
    for (let index = at; index < buffer.length; index++) {
      const code = buffer.charCodeAt(index);
      if (mode.quote !== 0) {
        if (code === mode.quote) mode.quote = 0;
      } else if (code === 34 || code === 39) {
        mode.quote = code;
      } else if (code === 62 /* > */ || code === 123 /* { */) {
        this.open_("</action>");
        return code === 62 ? index + 1 : index;
      } else if (code === 60 /* < */) {
        this.mode = { kind: "outside", bare: false };
        return index;
      }
    }
    return buffer.length;
  }

  /**
   * Reads `again` (the text before `at` that a recovered JSON block's end gives back: the
   * parser reads it again) and the rest of `buffer`; what was given out already stays so.
   */
  private again(
    again: string,
    buffer: string,
    at: number,
    given: number,
    waiting: boolean,
  ): BlockEnd | string {
    const from = at - again.length;
    const first = from > given ? buffer.slice(given, from) : "";
    const read = this.scan(again + buffer.slice(at), Math.max(0, given - from), waiting);
    return typeof read === "string"
      ? first + read
      : { before: first + read.before, after: read.after };
  }

  /**
   * A JSON string that took in a closing marker met a raw line break: the parser takes the
   * block to have ended at that marker (`bodyLength` into the body) and reads what followed
   * again. Closes it so; the text to read again.
   */
  private reopen(
    mode: Extract<Mode, { kind: "json" }>,
    bodyLength: number,
    markerLength: number,
  ): string {
    const body = mode.body.text();
    // A delimiter's marker is read again (it opens the next block); a tag's closer is past.
    if (mode.delimited) {
      this.mode = { kind: "delimited" };
      return body.slice(bodyLength);
    }
    this.mode = { kind: "outside", bare: false };
    return body.slice(bodyLength + markerLength);
  }

  /**
   * Nothing more came: a marker's start held back, out as it is, whether it is a marker whole
   * (`§end` at the very end: reasoning waiting goes before it, else after it), and whether the
   * answer stops inside a block it never closed (a JSON block whose string took in a marker
   * is ended there and what followed read again, as the parser does at the end).
   */
  release(): Released {
    if (this.held) {
      this.held = false;
      const marker = matchMarker(this.carry, 0, this.openers, true) !== null;
      return { text: this.carry, marker, inside: false };
    }
    // A JSON string that took in a closing marker and never ended: the parser ends the block
    // at that marker and reads what followed again (`recoverAtEnd`), and so is it read here.
    const open = this.mode;
    const recovered = open.kind === "json" && !open.delimited ? open.body.recoverAtEnd() : null;
    if (open.kind === "json" && recovered !== null) {
      const again = this.reopen(open, recovered.bodyLength, recovered.marker.text.length);
      const buffer = again + this.carry;
      this.carry = "";
      this.scan(buffer, buffer.length, false);
      return this.release();
    }
    // A marker's start given out already is a marker whole if the answer ends there (`{think`).
    const mode = this.mode;
    if (this.carry !== "" && (mode.kind === "outside" || mode.kind === "delimited")) {
      const found = matchMarker(this.carry, 0, this.openers, true);
      if (found !== null && found !== PARTIAL) {
        // A delimiter's block ends at the next marker (the reasoning's); a tag's does not.
        const role = this.roles.get(found.kind);
        if (role === "action") return { text: "", marker: false, inside: true };
        if (typeof role === "object" && "closer" in role)
          return { text: "", marker: false, inside: true, closer: role.closer.text };
      }
    }
    const closer = mode.kind === "block" ? { closer: mode.closer.text } : {};
    return { text: "", marker: false, inside: this.inside(), ...closer };
  }

  /**
   * Whether text written now would be read as inside the answer's open block: a tag's text or
   * JSON block, `<action`'s attributes, or a string of a delimiter's call (outside a string, the
   * next marker ends the call as it is).
   */
  private inside(): boolean {
    const mode = this.mode;
    if (mode.kind === "block" || mode.kind === "tag") return true;
    if (mode.kind !== "json") return false;
    if (!mode.delimited || mode.body.tooLarge || mode.body.recoverAtEnd() !== null) return true;
    return inString(mode.body.text() + this.carry);
  }
}

/** Whether JSON text ends inside a string. */
function inString(text: string): boolean {
  let open = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 34 /* " */) open = !open;
    else if (code === 92 /* \ */ && open) index++;
  }
  return open;
}
