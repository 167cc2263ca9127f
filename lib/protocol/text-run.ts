import { isWhitespace } from "./markers";

/**
 * A run of streamed text whose shown form is trimmed: leading whitespace is dropped and
 * trailing whitespace is held back until something non-blank follows it (or dropped when
 * the run closes). A lone high surrogate at the end is held too, so a piece never ends in
 * half an astral character. Each character is looked at once.
 */
export class TextRun {
  private started = false;
  private held = "";
  private heldStart = 0;
  /** Span of the text returned by the last `append` that returned text. */
  start = 0;
  end = 0;

  /** Whether any non-blank character has been shown. */
  get hasContent(): boolean {
    return this.started;
  }

  /** Appends `text`, which starts at offset `at`; returns what can be shown now, or null. */
  append(text: string, at: number): string | null {
    if (text.length === 0) return null;
    let from = 0;
    if (!this.started) {
      while (from < text.length && isWhitespace(text.charCodeAt(from))) from++;
      if (from === text.length) return null;
      this.started = true;
    }
    let last = text.length - 1;
    while (last >= from && isWhitespace(text.charCodeAt(last))) last--;
    if (last < from) {
      // Blank text after content: hold it; it is shown only if more content follows.
      if (this.held.length === 0) this.heldStart = at + from;
      this.held += text.slice(from);
      return null;
    }
    let cut = last + 1;
    const code = text.charCodeAt(last);
    if (code >= 0xd800 && code <= 0xdbff) cut = last;
    const prefix = this.held;
    const prefixStart = this.heldStart;
    this.held = text.slice(cut);
    this.heldStart = at + cut;
    const shown = text.slice(from, cut);
    if (prefix.length > 0) {
      this.start = prefixStart;
      this.end = at + cut;
      return prefix + shown;
    }
    if (shown.length === 0) return null;
    this.start = at + from;
    this.end = at + cut;
    return shown;
  }

  /** Ends the run; returns a held high surrogate (never whitespace), or null. */
  close(): string | null {
    const held = this.held;
    this.held = "";
    if (held.length > 0 && !isWhitespace(held.charCodeAt(0))) {
      this.start = this.heldStart;
      this.end = this.heldStart + 1;
      return held.slice(0, 1);
    }
    return null;
  }
}
