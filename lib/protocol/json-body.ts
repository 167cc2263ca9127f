import { isWhitespace, type Marker, matchMarker, PARTIAL } from "./markers";

export type BodyScan<K extends string> =
  /** The closing marker starts at `at` (buffer index). */
  | { kind: "closed"; at: number; marker: Marker<K> }
  /** Input ran out; everything before `at` is consumed, the rest must be held back. */
  | { kind: "more"; at: number }
  /**
   * A string opened in the body swallowed a closing marker and then hit a raw line break
   * (see `recoverAtEnd` for the end of the stream): the JSON is invalid anyway, so the block is taken to have
   * closed at that marker (`bodyLength` into the body) and what followed is parsed again.
   */
  | { kind: "recover"; at: number; bodyLength: number; marker: Marker<K> };

/**
 * The body of a JSON block, scanned JSON-aware for its closing marker: a marker inside a
 * string (escapes included, split across chunks or not) does not close the block. Each
 * character is looked at once; the text is kept in parts and joined once, at the close.
 * It also records where each top-level array element starts and ends, so that every
 * call of an execute batch can carry its own span.
 */
export class JsonBody<K extends string> {
  private parts: string[] = [];
  /** Body length in UTF-16 code units, counted even after the text is dropped. */
  length = 0;
  /** Offset just past the body's last non-blank character (kept when the text is dropped). */
  visibleEnd = 0;
  tooLarge = false;
  private inString = false;
  private escape = false;
  private depth = 0;
  /** Offset into the body of a closing marker seen inside the current string, or -1. */
  private candidate = -1;
  private candidateMarker: Marker<K> | null = null;
  /** [start, end) offsets into the body of each top-level array element. */
  readonly elements: number[] = [];

  constructor(
    private readonly closers: readonly Marker<K>[],
    /** Character codes that can start a closing marker. */
    private readonly triggers: ReadonlySet<number>,
    private readonly maxLength: number,
  ) {}

  scan(buffer: string, from: number, final: boolean): BodyScan<K> {
    // `final` only decides whether a marker cut off by the end of the buffer is text.
    let i = from;
    const n = buffer.length;
    for (; i < n; i++) {
      const code = buffer.charCodeAt(i);
      if (this.inString) {
        if (this.escape) {
          this.escape = false;
        } else if (code === 92 /* \ */) {
          this.escape = true;
        } else if (code === 34 /* " */) {
          this.inString = false;
          this.candidate = -1;
        } else if ((code === 10 || code === 13) && this.candidate >= 0 && !this.tooLarge) {
          return this.recover(buffer, from, i);
        } else if (this.candidate < 0 && this.triggers.has(code)) {
          const found = matchMarker(buffer, i, this.closers, final);
          if (found === PARTIAL) return this.consume(buffer, from, i);
          if (found !== null) {
            this.candidate = this.length + (i - from);
            this.candidateMarker = found;
          }
        }
        continue;
      }
      // Markers first: a partial one returns with this character unconsumed, so its effect
      // on the JSON state (a `"` or `[` that starts a marker, as `[SYSTEM:` does) must wait
      // until it is scanned again.
      if (this.triggers.has(code)) {
        const found = matchMarker(buffer, i, this.closers, final);
        if (found === PARTIAL) return this.consume(buffer, from, i);
        if (found !== null) {
          this.consume(buffer, from, i);
          return { kind: "closed", at: i, marker: found };
        }
      }
      if (code === 34) {
        this.inString = true;
      } else if (code === 91 /* [ */ || code === 123 /* { */) {
        if (this.depth === 1) this.elements.push(this.length + (i - from));
        this.depth++;
      } else if (code === 93 /* ] */ || code === 125 /* } */) {
        this.depth--;
        if (this.depth === 1) this.elements.push(this.length + (i - from) + 1);
      }
    }
    return this.consume(buffer, from, n);
  }

  /**
   * At the end of the stream: when an open string swallowed a closing marker, where the
   * block is taken to have closed instead (see `recover`); null otherwise.
   */
  recoverAtEnd(): { bodyLength: number; marker: Marker<K> } | null {
    if (!this.inString || this.candidate < 0 || this.tooLarge || this.candidateMarker === null)
      return null;
    return { bodyLength: this.candidate, marker: this.candidateMarker };
  }

  /** Drops the body: the block is reported as too large when it closes. */
  markTooLarge(): void {
    this.tooLarge = true;
    this.parts = [];
  }

  /** The whole body text (empty once the block grew too large). */
  text(): string {
    return this.parts.join("");
  }

  private consume(buffer: string, from: number, to: number): { kind: "more"; at: number } {
    if (to > from) {
      let last = to;
      while (last > from && isWhitespace(buffer.charCodeAt(last - 1))) last--;
      if (last > from) this.visibleEnd = this.length + (last - from);
      this.length += to - from;
      if (!this.tooLarge) {
        if (this.length > this.maxLength) {
          this.tooLarge = true;
          this.parts = [];
        } else {
          this.parts.push(from === 0 && to === buffer.length ? buffer : buffer.slice(from, to));
        }
      }
    }
    return { kind: "more", at: to };
  }

  private recover(buffer: string, from: number, at: number): BodyScan<K> {
    this.consume(buffer, from, at);
    const marker = this.candidateMarker as Marker<K>;
    return { kind: "recover", at, bodyLength: this.candidate, marker };
  }
}
