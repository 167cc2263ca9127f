/**
 * The start offset of every line of a text that only grows, kept up to date by scanning only
 * what was appended since the last call.
 */
export class LineIndex {
  readonly starts: number[] = [0];
  private scanned = 0;

  /** `text` should extend the previous one; a shorter text (a replay restarting) starts over. */
  update(text: string): readonly number[] {
    if (text.length < this.scanned) {
      this.starts.length = 1;
      this.scanned = 0;
    }
    for (let at = text.indexOf("\n", this.scanned); at !== -1; at = text.indexOf("\n", at + 1))
      this.starts.push(at + 1);
    this.scanned = text.length;
    return this.starts;
  }
}
