import type { GrammarState, HighlighterCore } from "shiki/core";
import type { WireLang } from "./wire-highlighter";
import { type Run, tokenizeLines } from "./wire-runs";

/**
 * Tokenizes a text that only grows (a turn's raw text) without re-tokenizing what is done:
 * complete lines are tokenized once and kept with the grammar state after them; only the
 * last, still growing line is tokenized again on each update. Total work stays linear in the
 * text (plus the last line per update).
 */
export class IncrementalTokens {
  /** Runs of each complete line, in order; a line's array never changes once here. */
  readonly lines: Run[][] = [];
  /** Runs of the partial last line (the text after the last "\n"). */
  tail: Run[] = [];
  /** How much of the text the runs describe; anything after it is shown plain. */
  covered = 0;
  private stableEnd = 0;
  private state: GrammarState | undefined;

  constructor(
    private readonly highlighter: HighlighterCore,
    private readonly lang: WireLang = "wire",
  ) {}

  /** `text` must extend the text of the previous update (append-only). */
  update(text: string): void {
    if (text.length < this.covered)
      throw new Error("IncrementalTokens.update: text shrank; make a new instance for a new text.");
    const lineEnd = text.lastIndexOf("\n") + 1;
    if (lineEnd > this.stableEnd) {
      const block = text.slice(this.stableEnd, lineEnd);
      const result = tokenizeLines(this.highlighter, block, this.stableEnd, this.options());
      // `block` ends with "\n", so its last line is the empty one after it.
      for (let index = 0; index < result.lines.length - 1; index++)
        this.lines.push(result.lines[index] ?? []);
      this.state = result.state;
      this.stableEnd = lineEnd;
    }
    const rest = text.slice(this.stableEnd);
    this.tail =
      rest === ""
        ? []
        : (tokenizeLines(this.highlighter, rest, this.stableEnd, this.options()).lines[0] ?? []);
    this.covered = text.length;
  }

  /** The runs of line `index`, or undefined for a line not tokenized yet. */
  runsOf(index: number): Run[] | undefined {
    if (index < this.lines.length) return this.lines[index];
    return index === this.lines.length ? this.tail : undefined;
  }

  private options() {
    return this.state === undefined
      ? { lang: this.lang }
      : { lang: this.lang, grammarState: this.state };
  }
}
