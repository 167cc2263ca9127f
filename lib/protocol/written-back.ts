/**
 * What a server parsed out of the model's text, written back into it in the dialect's own
 * markers: reasoning in its think markers, native tool calls in its call syntax. Shared by the
 * playground's providers (`lib/providers/server-parts.ts`) and the capture proxy
 * (`lib/proxy/turn-recorder.ts`), so both write the same text. Pure.
 */
import { AnswerBlocks } from "./answer-blocks";
import { BUILTIN_DEFINITIONS, type DialectDefinition } from "./definition";
import { encodeTurn } from "./encode";
import type { CallEvent, Dialect } from "./events";
import { type Marker, matchMarker, PARTIAL, triggersOf, wordBoundary } from "./markers";

type Spec = Dialect | DialectDefinition;

/** Stands for a block's content while its markers are cut out of an encoded one. */
const CONTENT = "\u0000";

/**
 * The text a think block opens and closes with in `dialect` (`<think>` / `</think>\n`,
 * `§think: ` / `\n`, a definition's own markers), read off the encoder so every dialect, a
 * user's definition included, writes it the way its parser reads it. The newline after it
 * starts what follows on a line of its own.
 */
export function thinkMarkers(dialect: Spec): { open: string; close: string } {
  const block = encodeTurn(dialect, [
    {
      type: "think",
      id: "reasoning",
      timestamp: 0,
      turn: 0,
      span: { start: 0, end: 0 },
      content: CONTENT,
    },
  ]);
  const at = block.indexOf(CONTENT);
  const open = block.slice(0, at);
  // An opener ending in a word character (`{think`) is no marker before one (`{thinkThe`);
  // the space is trimmed off the block's text.
  const spaced = wordBoundary(open) === undefined ? open : `${open} `;
  return { open: spaced, close: `${block.slice(at + CONTENT.length)}\n` };
}

/** The markers that end a think block's text in `dialect`: every marker of a delimiter one. */
function thinkEnders(dialect: Spec): Marker[] {
  const marker = (text: string): Marker => {
    const boundary = wordBoundary(text);
    return boundary === undefined ? { text, kind: "m" } : { text, kind: "m", boundary };
  };
  if (dialect === "action") return [{ text: "</thought>", kind: "m" }];
  const definition = typeof dialect === "string" ? BUILTIN_DEFINITIONS[dialect] : dialect;
  if (definition.family !== "delimiter") return [marker(definition.think[1])];
  const { think, call, execute, respond, end, results } = definition;
  return [think, call, execute, respond, end, results].map(marker);
}

/**
 * What breaks a marker in reasoning: `·` (U+00B7), or the first of a few others a definition's
 * markers do not use, else U+2060 (no marker may hold an invisible character).
 */
function breakCharacter(enders: readonly Marker[]): string {
  const candidates = ["\u00b7", "\u2027", "\u00a6", "\u2060"];
  return (
    candidates.find((candidate) => enders.every((marker) => !marker.text.includes(candidate))) ??
    "\u2060"
  );
}

/**
 * Reasoning as the text of one think block: every marker that would end the block early in
 * `dialect` (`</think>`, `</thought>`, a definition's closing marker, any `§…` marker of a
 * delimiter dialect) is broken by a `·` after its first character (`<·/think>`, `§·call:`;
 * a one-character marker is replaced by it). Else a call the model only drafted in its
 * reasoning would run, and the answer after it be read wrong. Fed in any pieces: a tail that
 * may be a marker's start is held until the next piece or `end()`.
 */
export class ReasoningGuard {
  private readonly enders: Marker[];
  private readonly triggers: ReturnType<typeof triggersOf>;
  private readonly mark: string;
  private readonly close: string;
  private held = "";

  constructor(dialect: Spec) {
    this.enders = thinkEnders(dialect);
    this.triggers = triggersOf(this.enders);
    this.mark = breakCharacter(this.enders);
    this.close = thinkMarkers(dialect).close;
  }

  /** The reasoning safe to write now. */
  push(text: string): string {
    return this.scan(this.held + text, false);
  }

  /** The rest, safe to write just before the think block's closing marker. */
  end(): string {
    const rest = this.scan(this.held, true);
    // A tail the closing marker would complete earlier (a marker that overlaps itself, like
    // `==`) is cut off from it.
    for (let at = 0; at < rest.length; at++) {
      const found = matchMarker(rest.slice(at) + this.close, 0, this.enders, true);
      if (found !== null && found !== PARTIAL) return rest + this.mark;
    }
    return rest;
  }

  private scan(buffer: string, final: boolean): string {
    let out = "";
    let last = 0;
    let k = this.triggers.next(buffer, 0);
    while (k >= 0) {
      const found = matchMarker(buffer, k, this.enders, final);
      if (found === PARTIAL) break;
      if (found !== null) {
        const first = String.fromCodePoint(buffer.codePointAt(k) ?? 0).length;
        const kept =
          found.text.length > first ? buffer.slice(last, k + first) : buffer.slice(last, k);
        out += kept + this.mark;
        last = k + first;
        k = this.triggers.next(buffer, last);
        continue;
      }
      k = this.triggers.next(buffer, k + 1);
    }
    const cut = k >= 0 ? k : buffer.length;
    this.held = buffer.slice(cut);
    return out + buffer.slice(last, cut);
  }
}

/** `text` as one think block's reasoning in `dialect` (`ReasoningGuard` on a whole text). */
export function guardReasoning(dialect: Spec, text: string): string {
  const guard = new ReasoningGuard(dialect);
  return guard.push(text) + guard.end();
}

/**
 * What goes before the first answer text written after reasoning: in a delimiter dialect,
 * unmarked text after `§think: …` would be read as more thinking, so it gets the respond
 * marker (`§respond: `). `null` while `text` cannot tell yet (white space only, or the start
 * of a marker): ask again with more; `final`: nothing more comes, so it tells.
 */
export function afterReasoning(dialect: Spec, text: string, final = false): string | null {
  if (dialect === "action") return "";
  const definition = typeof dialect === "string" ? BUILTIN_DEFINITIONS[dialect] : dialect;
  if (definition.family !== "delimiter") return "";
  const start = text.trimStart();
  if (start === "") return final ? "" : null;
  // As the parser reads it: `DONE` before a word character (`DONEhello`) is no marker.
  const found = matchMarker(start, 0, thinkEnders(definition), final);
  if (found === PARTIAL) return null;
  return found === null ? `${definition.respond} ` : "";
}

/**
 * Reasoning and answer text of one model turn, as they come, → the turn's wire text: reasoning
 * in the think markers with its markers broken (`ReasoningGuard`), the block closed before the
 * answer text that follows, which gets the respond marker where the dialect needs it
 * (`afterReasoning`; held, at most a marker's length, until it can tell). Reasoning that comes
 * while the answer is inside a block or a response (`<respond>Hel` … `lo</respond>`) waits and
 * is written where that ends (`AnswerBlocks`: after the closing marker, before the marker that
 * ends a bare or delimited response, or at `release()`): inside, it would show as the answer;
 * around, the answer would be two responses, and a run's answer is its last. Every return
 * value is the wire text to write now, in order.
 */
export class ThinkWriter {
  private readonly markers: { open: string; close: string };
  private guard: ReasoningGuard | undefined;
  /** Answer text after reasoning, held until it shows whether it starts with a marker. */
  private following: string | undefined;
  private readonly blocks: AnswerBlocks;
  /**
   * Reasoning waiting for the answer's open block to end: its guard, its text so far (at most
   * `MAX_WAITING` characters kept, in pieces) and how many characters past that were cut.
   */
  private waiting: Waiting | undefined;
  /** The last character written (a space before any). */
  private last = 32;

  constructor(private readonly dialect: Spec) {
    this.markers = thinkMarkers(dialect);
    this.blocks = new AnswerBlocks(dialect);
  }

  /** Whether a think block is open. */
  get thinking(): boolean {
    return this.guard !== undefined;
  }

  /**
   * A piece of reasoning: the block opens at the first (held answer text goes out first), or,
   * while the answer has a block open, the reasoning waits for it to end.
   */
  think(text: string): string {
    if (this.guard !== undefined) return this.out(this.guard.push(text));
    const wire = this.releaseFollowing();
    if (this.waiting === undefined && !this.blocks.open) {
      this.guard = new ReasoningGuard(this.dialect);
      return this.out(wire + this.openAfter(wire) + this.guard.push(text));
    }
    this.waiting ??= { guard: new ReasoningGuard(this.dialect), pieces: [], length: 0, cut: 0 };
    keepWaiting(this.waiting, this.waiting.guard.push(text));
    return this.out(wire);
  }

  /** Ends an open think block ("" when none is open; reasoning waiting stays waiting). */
  close(): string {
    if (this.guard === undefined) return "";
    const wire = this.guard.end() + this.markers.close;
    this.guard = undefined;
    this.thought();
    return this.out(wire);
  }

  /** A piece of answer text, after the think block it closes. */
  text(text: string): string {
    return this.close() + this.out(this.answer(text));
  }

  /**
   * Answer text held (after reasoning, or a marker's start reasoning waits before), out as it
   * is, and reasoning still waiting after it: nothing more came to tell. Unless the answer
   * stops inside a block it never closed (`<respond>Hel`, a call's JSON, the model's own
   * `<think>`): written there, the reasoning would be read as that block's (the answer's text,
   * a broken call, or the end of the model's think block), so it waits on, for text that
   * closes the block after all; when none comes it is never written (`unwritten`).
   */
  release(): string {
    const wire = this.releaseFollowing(true);
    const held = this.blocks.release();
    if (this.waiting === undefined || held.inside) return this.out(wire + held.text);
    // A marker that ends the response comes after the reasoning; other text is the response's.
    if (held.marker) return this.out(wire + this.writeWaiting(wire, held.text) + held.text);
    return this.out(wire + held.text + this.writeWaiting(wire + held.text));
  }

  /**
   * Characters of reasoning waiting for the answer's open block to end, not written yet (what
   * was cut off past `MAX_WAITING` included): after the last `release()`, reasoning lost
   * because the answer ended inside a block.
   */
  get unwritten(): number {
    return this.waiting === undefined ? 0 : this.waiting.length + this.waiting.cut;
  }

  /** Answer text through `afterReasoning` (after a think block) and `AnswerBlocks`. */
  private answer(text: string): string {
    if (this.following !== undefined) {
      const held = this.following + text;
      const prefix = afterReasoning(this.dialect, held);
      if (prefix === null) {
        this.following = held;
        return "";
      }
      this.following = undefined;
      return this.read(prefix + held);
    }
    return this.read(text);
  }

  private read(text: string): string {
    const read = this.blocks.feed(text, this.waiting !== undefined);
    if (typeof read === "string") {
      // A block that ended in text given out before (a call's JSON read again) left nothing
      // open: the reasoning goes here.
      return this.waiting !== undefined && !this.blocks.open
        ? read + this.writeWaiting(read)
        : read;
    }
    // The block the reasoning waited for ended: it goes here, and the rest after it.
    return read.before + this.writeWaiting(read.before, read.after) + this.answer(read.after);
  }

  /** The reasoning that waited, as a think block after `before` (and before `after`). */
  private writeWaiting(before: string, after = ""): string {
    const waiting = this.waiting as Waiting;
    this.waiting = undefined;
    const { close } = this.markers;
    const rest = waiting.guard.end();
    keepWaiting(waiting, rest);
    const kept = waiting.pieces.join("");
    const note =
      waiting.cut === 0
        ? ""
        : guardReasoning(
            this.dialect,
            ` [${waiting.cut} more characters of reasoning were cut: they came while the answer had a block open]`,
          );
    const wire = this.openAfter(before, after) + kept + note + close;
    this.thought();
    return wire;
  }

  /**
   * The think block's opening marker after `before` (else what was written last): on a line
   * of its own after a word character when it starts with one, so neither runs into the other
   * (`GO` then `THINK>`: `GOTHINK>` is neither marker). Not when the answer's text `after` it
   * goes on with a word character: then what `before` ends with is no marker (`DONE` in
   * `DONEhello`), and a line break would make it one.
   */
  private openAfter(before: string, after = ""): string {
    const { open } = this.markers;
    const last = before === "" ? this.last : before.charCodeAt(before.length - 1);
    const word = isWordCharacter(last) && isWordCharacter(open.charCodeAt(0));
    return word && !(after !== "" && isWordCharacter(after.charCodeAt(0))) ? `\n${open}` : open;
  }

  /** `wire`, noting its last character. */
  private out(wire: string): string {
    if (wire !== "") this.last = wire.charCodeAt(wire.length - 1);
    return wire;
  }

  /** After a think block written here: the answer's next text is told apart afresh. */
  private thought(): void {
    this.following = "";
    this.blocks.thought();
  }

  /**
   * Answer text held after reasoning, out as it is (and read, so blocks stay known). `final`:
   * nothing more of the answer comes, so a marker's start it held (`§`) is text: in a
   * delimiter dialect it gets the respond marker, else it would be read as more thinking.
   */
  private releaseFollowing(final = false): string {
    const held = this.following ?? "";
    this.following = undefined;
    if (held === "") return "";
    return this.read((final ? afterReasoning(this.dialect, held, true) : "") + held);
  }
}

/**
 * At most this many characters of reasoning wait for the answer's open block to end; past it
 * they are cut (and counted), so an answer that never closes its block cannot make the writer
 * hold reasoning without bound.
 */
export const MAX_WAITING = 64 * 1024;

interface Waiting {
  guard: ReasoningGuard;
  pieces: string[];
  length: number;
  cut: number;
}

/** `text` kept in `waiting`, up to `MAX_WAITING` characters; the rest counted as cut. */
function keepWaiting(waiting: Waiting, text: string): void {
  const room = Math.max(0, MAX_WAITING - waiting.length);
  let kept = text.length <= room ? text : text.slice(0, room);
  // A surrogate pair is not split at the cut.
  const last = kept.charCodeAt(kept.length - 1);
  if (kept.length < text.length && last >= 0xd800 && last <= 0xdbff) kept = kept.slice(0, -1);
  if (kept !== "") waiting.pieces.push(kept);
  waiting.length += kept.length;
  waiting.cut += text.length - kept.length;
}

function isWordCharacter(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95
  );
}

/** One native tool call as a server sent it. */
export interface NativeCall {
  /** The server's id (`call_0`); a missing or unusable one gets `native-<n>`. */
  id?: string;
  name: string;
  /** The arguments' JSON text, verbatim (it may be broken: the parser then says so). */
  input: string;
}

/** A native call's arguments as the encoder writes them, replaced by the text the server sent. */
const ARGS = { [CONTENT]: 0 };
const ARGS_TEXT = JSON.stringify(ARGS);

/** A call id that can stand in an `<action id="…">` attribute as it is. */
const SAFE_ID = /^[\w.:-]{1,64}$/;

/**
 * Native calls written as one batch in the dialect's own call syntax (a definition's too), the
 * way the encoder writes calls the model wrote itself: `<execute>[…]</execute>`, `§call: …`
 * lines and `§execute`, `<tool_call>` blocks, `<action mode="sync" id="…">` blocks. Ids are
 * unique within the batch (a server that sends `call_0` twice gets `call_0`, `call_0-2`). The
 * arguments go in verbatim, never re-encoded, so broken ones get the parser's own error.
 */
export function nativeCallsText(dialect: Spec, calls: readonly NativeCall[]): string {
  const taken = new Set<string>();
  const events = calls.map((call, index): CallEvent => {
    const given = call.id !== undefined && SAFE_ID.test(call.id) ? call.id : `native-${index + 1}`;
    let id = given;
    for (let n = 2; taken.has(id); n++) id = `${given}-${n}`;
    taken.add(id);
    return {
      type: "call",
      id: `native-${index + 1}`,
      timestamp: 0,
      turn: 0,
      span: { start: 0, end: 0 },
      call: { id, name: call.name, args: ARGS },
    };
  });
  const pieces = encodeTurn(dialect, events).split(ARGS_TEXT);
  return pieces
    .map((piece, index) => {
      const input = calls[index]?.input.trim();
      return index === pieces.length - 1
        ? piece
        : `${piece}${input === "" || input === undefined ? "{}" : input}`;
    })
    .join("");
}
