/**
 * Whether a model's answer text, as it streams, is inside one of its dialect's blocks (or a
 * bare response), and where that ends: what `ThinkWriter` needs to write reasoning that comes
 * meanwhile after the block, not inside it (in a response it would show as the answer; split
 * around it, the answer would be two responses). A light reading of the markers only, not a
 * parser: no JSON awareness (a closing marker inside a JSON string of a call ends it here).
 * Pure; holds at most a marker's start between pieces.
 */
import { BUILTIN_DEFINITIONS, type DialectDefinition } from "./definition";
import type { Dialect } from "./events";
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
 * What a marker does: opens a block its `closer` ends (tags), opens one the next marker ends
 * (delimiter), or stands alone (`<end>`, `§execute`).
 */
type Role = { closer: Marker } | "delimited" | "alone";

type Mode =
  /** Between blocks; `bare`: text there is a response (`bareIsRespond`) and some came. */
  { kind: "outside"; bare: boolean } | { kind: "block"; closer: Marker } | { kind: "delimited" };

/** Where the open block ended in what was fed, when reasoning waits for that. */
export interface BlockEnd {
  /** The text up to where the reasoning goes. */
  before: string;
  /** The text from there on, not yet read: feed it again. */
  after: string;
}

export class AnswerBlocks {
  private readonly roles = new Map<string, Role>();
  private readonly openers: Marker[];
  private readonly triggers: ReturnType<typeof triggersOf>;
  /** Whether text outside any block is a response (xml, hermes; not action, nor after a delimiter's first marker). */
  private bareIsRespond: boolean;
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
        ["<results>", "</results>"],
      ] as const)
        openers.push(add(open, { closer: marker(close) }));
      openers.push({ ...add("<action", { closer: marker("</action>") }), boundary: "tag" });
      this.bareIsRespond = false;
      this.delimiter = false;
    } else {
      const definition = typeof dialect === "string" ? BUILTIN_DEFINITIONS[dialect] : dialect;
      this.delimiter = definition.family === "delimiter";
      this.bareIsRespond = true;
      if (definition.family === "delimiter") {
        const { think, call, respond, results, execute, end } = definition;
        for (const text of [think, call, respond, results]) openers.push(add(text, "delimited"));
        for (const text of [execute, end]) openers.push(add(text, "alone"));
      } else {
        const pairs =
          definition.family === "tags"
            ? [definition.think, definition.batch, definition.respond, definition.results]
            : [definition.think, definition.call, definition.results];
        for (const pair of pairs)
          if (pair !== undefined) openers.push(add(pair[0], { closer: marker(pair[1]) }));
        if (definition.family === "tags" && definition.end !== undefined)
          openers.push(add(definition.end, "alone"));
      }
    }
    this.openers = openers;
    const closers = [...this.roles.values()].flatMap((role) =>
      typeof role === "object" ? [role.closer] : [],
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
    if (this.delimiter) this.bareIsRespond = false;
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
    let at = 0;
    while (at < buffer.length) {
      const mode = this.mode;
      const next = this.triggers.next(buffer, at);
      const stop = next < 0 ? buffer.length : next;
      if (mode.kind === "outside" && this.bareIsRespond && !mode.bare)
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
        if (mode.kind === "outside" && this.bareIsRespond) mode.bare = true;
        at = next + 1;
        continue;
      }
      const end = next + found.text.length;
      if (mode.kind === "block") {
        this.mode = { kind: "outside", bare: false };
        if (waiting) return { before: buffer.slice(given, end), after: buffer.slice(end) };
        at = end;
        continue;
      }
      // An opener ends an open response (bare, or a delimiter's block) where it starts; one
      // that began in text already given out cannot have reasoning before it: it waits on.
      if (waiting && this.open && next >= given) {
        this.mode = { kind: "outside", bare: false };
        return { before: buffer.slice(given, next), after: buffer.slice(next) };
      }
      const role = this.roles.get(found.kind);
      if (this.delimiter) this.bareIsRespond = false;
      this.mode =
        role === "delimited"
          ? { kind: "delimited" }
          : role === "alone" || role === undefined
            ? { kind: "outside", bare: false }
            : { kind: "block", closer: role.closer };
      at = end;
    }
    return buffer.slice(given);
  }

  /**
   * A marker's start held back, out as it is (nothing more came), and whether it is a marker
   * whole (`§end` at the very end): then reasoning waiting goes before it, else after it.
   */
  release(): { text: string; marker: boolean } {
    if (!this.held) return { text: "", marker: false };
    this.held = false;
    return { text: this.carry, marker: matchMarker(this.carry, 0, this.openers, true) !== null };
  }
}
