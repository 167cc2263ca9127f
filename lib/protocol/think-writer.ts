/**
 * `ThinkWriter`: reasoning and answer text of one model turn, as a server streams them apart,
 * → the turn's wire text, with `written-back.ts`'s pieces (think markers, `ReasoningGuard`,
 * `afterReasoning`) and `AnswerBlocks` (where the answer's blocks end). Pure.
 */
import { AnswerBlocks } from "./answer-blocks";
import type { DialectDefinition } from "./definition";
import type { Dialect } from "./events";
import { afterReasoning, guardReasoning, ReasoningGuard, thinkMarkers } from "./written-back";

type Spec = Dialect | DialectDefinition;

/**
 * Reasoning and answer text of one model turn, as they come, → the turn's wire text: reasoning
 * in the think markers with its markers broken (`ReasoningGuard`), the block closed before the
 * answer text that follows, which gets the respond marker where the dialect needs it
 * (`afterReasoning`; held, at most a marker's length, until it can tell). Reasoning that comes
 * while the answer is inside a block or a response (`<respond>Hel` … `lo</respond>`) waits and
 * is written where that ends (`AnswerBlocks`: after the closing marker, before the marker that
 * ends a bare or delimited response, or at `release()` unless the answer stopped inside a
 * block it never closed: then never, `unwritten`): inside, it would show as the answer or break
 * a call; around, the answer would be two responses, and a run's answer is its last. A call's
 * JSON is read as the parser reads it (a marker in a string does not end it). Every return
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
    const following = this.following;
    if (following && afterReasoning(this.dialect, following) === null) {
      // The answer text after the last think block cannot tell yet whether it opens with a
      // marker (`§`, `DON`): it stays held, and this reasoning goes before it.
      this.guard = new ReasoningGuard(this.dialect);
      return this.out(this.openAfter("") + this.guard.push(text));
    }
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
   * is, and reasoning still waiting after it: nothing more of the answer comes. Also when the
   * answer stops inside a block it never closed (`<respond>Hel`, a call's JSON): the think
   * block then ends the wire, where the parsers read it as thinking after that block's
   * `unclosed_block` error (a delimiter's next marker ends any block; a tag parser takes a
   * think block ending the stream inside a block it never closed as reasoning written after
   * it: `trailing-think.ts`). In the model's own think block left open it goes on that block
   * on a line of its own, as more of its thinking (before the same error).
   */
  release(): string {
    const wire = this.releaseFollowing(true);
    const held = this.blocks.release();
    if (this.waiting === undefined) return this.out(wire + held.text);
    if (held.closer !== undefined && held.closer === this.markers.close.trimEnd()) {
      // The model's own think block, left open: the reasoning goes on in it, on a line of its
      // own (a think block in it would be closed by its closer).
      const waiting = this.takeWaiting();
      this.thought();
      return this.out(`${wire + held.text}\n${waiting}`);
    }
    if (held.inside) return this.out(wire + held.text + this.writeWaiting(wire + held.text));
    // A marker that ends the response comes after the reasoning; other text is the response's.
    if (held.marker) return this.out(wire + this.writeWaiting(wire, held.text) + held.text);
    return this.out(wire + held.text + this.writeWaiting(wire + held.text));
  }

  /**
   * Characters of reasoning waiting for the answer's open block to end, not written yet (what
   * was cut off past `MAX_WAITING` included); 0 after `release()`, which writes it.
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
    const wire = this.openAfter(before, after) + this.takeWaiting() + this.markers.close;
    this.thought();
    return wire;
  }

  /** The reasoning that waited, guarded, with a note of how much was cut past the bound. */
  private takeWaiting(): string {
    const waiting = this.waiting as Waiting;
    this.waiting = undefined;
    keepWaiting(waiting, waiting.guard.end());
    const note =
      waiting.cut === 0
        ? ""
        : guardReasoning(
            this.dialect,
            ` [${waiting.cut} more characters of reasoning were cut: they came while the answer had a block open]`,
          );
    return waiting.pieces.join("") + note;
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
    // Answer text held after an earlier think block stays held (`think` wrote before it).
    this.following ??= "";
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
