/**
 * `<action …>`'s opening tag as it streams (`tag-parser.ts`): its attribute text up to `>`,
 * quotes respected, kept up to the block bound (past it only counted). Pure.
 */
export class ActionTag {
  private parts: string[] = [];
  private quote = 0;
  private length = 0;

  constructor(
    /** Where `<action` starts in the turn. */
    readonly start: number,
    private readonly maxBlock: number,
  ) {}

  /**
   * Reads `buffer` from `pos`: where the tag ends (at `>`; at `{`, the body begun without one;
   * at `<`, a tag never closed) with that character's code and the attribute text (null when
   * past the bound), or null when it goes on past the buffer (what was read is kept).
   */
  read(buffer: string, pos: number): { at: number; code: number; text: string | null } | null {
    for (let at = pos; at < buffer.length; at++) {
      const code = buffer.charCodeAt(at);
      if (this.quote !== 0) {
        if (code === this.quote) this.quote = 0;
        continue;
      }
      if (code === 34 || code === 39) this.quote = code;
      else if (code === 62 /* > */ || code === 123 /* { */ || code === 60 /* < */)
        return { at, code, text: this.text(buffer, pos, at) };
    }
    this.length += buffer.length - pos;
    if (this.length <= this.maxBlock) this.parts.push(buffer.slice(pos));
    else this.parts = [];
    return null;
  }

  /** What was read of the tag (at the end of the stream: a tag never closed). */
  raw(): string {
    return `<action${this.parts.join("")}`;
  }

  /** The attribute text up to `to`, or null when it grew past the size bound. */
  private text(buffer: string, pos: number, to: number): string | null {
    if (this.length + (to - pos) > this.maxBlock) return null;
    return this.parts.join("") + buffer.slice(pos, to);
  }
}
