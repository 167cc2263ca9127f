/**
 * What a server parsed out of the model's text, written back into it in the dialect's own
 * markers: reasoning in its think markers, native tool calls in its call syntax. Shared by the
 * playground's providers (`lib/providers/server-parts.ts`) and the capture proxy
 * (`lib/proxy/turn-recorder.ts`), so both write the same text (as a stream of reasoning and
 * answer text: `ThinkWriter`, `think-writer.ts`). Pure.
 */
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
