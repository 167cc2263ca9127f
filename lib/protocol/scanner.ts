import { DEFAULT_MAX_BLOCK, Emitter, type ParserOptions } from "./emitter";
import type { ProtocolEvent } from "./events";

export interface Parser {
  /** Events completed or grown by this chunk. */
  feed(chunk: string): ProtocolEvent[];
  /** Flushes everything held back; the parser is closed afterwards. */
  end(): ProtocolEvent[];
}

/** `step` returns this when it cannot go on without more input. */
export const NEED_MORE = -1;

/**
 * The chunk-handling shell shared by every dialect. Only the unconsumed tail (at most a
 * partial marker) is kept between chunks, so each character is scanned a bounded number
 * of times however the text is split.
 */
export abstract class Scanner implements Parser {
  protected readonly emit: Emitter;
  protected readonly maxBlock: number;
  /** Unconsumed text; `base` is the turn offset of its first character. */
  protected buffer = "";
  protected base = 0;
  private closed = false;

  constructor(options: ParserOptions = {}) {
    this.emit = new Emitter(options);
    this.maxBlock = options.maxBlockBytes ?? DEFAULT_MAX_BLOCK;
  }

  feed(chunk: string): ProtocolEvent[] {
    if (this.closed)
      throw new Error("Parser.feed() called after end(); create a new parser per turn.");
    if (chunk.length > 0) {
      this.buffer = this.buffer.length === 0 ? chunk : this.buffer + chunk;
      this.run(false);
    }
    return this.emit.take();
  }

  end(): ProtocolEvent[] {
    if (this.closed) throw new Error("Parser.end() called twice; create a new parser per turn.");
    this.closed = true;
    do this.run(true);
    while (this.finish());
    return this.emit.take();
  }

  /** Characters held back between chunks (a partial marker at most); for diagnostics and tests. */
  get held(): number {
    return this.buffer.length;
  }

  /** Consumes input from `pos`; returns the new position or NEED_MORE. */
  protected abstract step(pos: number, final: boolean): number;

  /**
   * Closes whatever is still open at the end of the stream. Returns true when it put text
   * back into the buffer to be parsed again (a recovered block), false when done.
   */
  protected abstract finish(): boolean;

  /** Replaces the input from the current step on (used when a block is recovered). */
  protected rebase(text: string, base: number): number {
    this.buffer = text;
    this.base = base;
    return 0;
  }

  /** The end offset of everything seen so far. */
  protected get offset(): number {
    return this.base + this.buffer.length;
  }

  private run(final: boolean): void {
    let pos = 0;
    while (pos < this.buffer.length) {
      const next = this.step(pos, final);
      if (next === NEED_MORE) break;
      pos = next;
    }
    if (pos > 0) {
      this.base += Math.min(pos, this.buffer.length);
      this.buffer = this.buffer.slice(pos);
    }
  }
}
