import type { ErrorEvent, ParserErrorCode, ProtocolEvent, Span } from "./events";

export interface ParserOptions {
  /** The model turn these events belong to (default 0). */
  turn?: number;
  /** Prefix of event ids (default `t<turn>-`); ids come from the parser's own counter. */
  idPrefix?: string;
  /** Clock for `timestamp` in ms since epoch (default: always 0 — the parser is pure). */
  clock?: () => number;
  /** A buffered block (JSON body) larger than this becomes `block_too_large` (default 8 MiB, in UTF-16 code units). */
  maxBlockBytes?: number;
}

export const DEFAULT_MAX_BLOCK = 8 * 1024 * 1024;

/**
 * Collects the events of one `feed`/`end` call. Pieces of one think/respond block that
 * arrive in the same call are folded into one event, so a whole-text feed yields one
 * event per block and a char-by-char feed yields many that merge to the same thing.
 */
export class Emitter {
  readonly turn: number;
  private readonly prefix: string;
  private readonly clock: () => number;
  private count = 0;
  private out: ProtocolEvent[] = [];

  constructor(options: ParserOptions) {
    this.turn = options.turn ?? 0;
    this.prefix = options.idPrefix ?? `t${this.turn}-`;
    this.clock = options.clock ?? (() => 0);
  }

  nextId(): string {
    this.count += 1;
    return `${this.prefix}${this.count}`;
  }

  now(): number {
    return this.clock();
  }

  push(event: ProtocolEvent): void {
    this.out.push(event);
  }

  piece(type: "think" | "respond", id: string, content: string, start: number, end: number): void {
    const last = this.out[this.out.length - 1];
    if (last !== undefined && last.id === id && last.type === type) {
      last.content += content;
      last.span.end = end;
      return;
    }
    const span = { start, end };
    this.out.push({ type, id, timestamp: this.clock(), turn: this.turn, span, content });
  }

  error(code: ParserErrorCode, message: string, span: Span, extra: Partial<ErrorEvent> = {}): void {
    this.out.push({
      type: "error",
      id: this.nextId(),
      timestamp: this.clock(),
      turn: this.turn,
      span,
      code,
      message,
      ...extra,
    });
  }

  take(): ProtocolEvent[] {
    const out = this.out;
    this.out = [];
    return out;
  }
}
