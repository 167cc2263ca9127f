import { ActionTag } from "./action-tag";
import type { ParserOptions } from "./emitter";
import type { Span } from "./events";
import { JsonBody } from "./json-body";
import { type Marker, matchMarker, PARTIAL } from "./markers";
import { OutsideText } from "./outside-text";
import { NEED_MORE, Scanner } from "./scanner";
import type { JsonKind, TagGrammar, TagKind, TextKind } from "./tag-grammar";
import { TextRun } from "./text-run";
import { trailingThink } from "./trailing-think";

export type { ClosedBlock, TagGrammar, TagKind } from "./tag-grammar";

interface HeldText {
  start: number;
  parts: string[];
  length: number;
}

type Mode =
  | { kind: "outside" }
  | {
      kind: "text";
      event: TextKind;
      id: string;
      start: number;
      closers: Marker<TagKind>[];
      run: TextRun;
      /**
       * A response's text from a think opener in it on, held (up to the block bound) until the
       * response's closer says it is the response's, or the stream ends (`trailingThink`).
       */
      held?: HeldText;
    }
  | { kind: "tag"; tag: ActionTag }
  | {
      kind: "json";
      block: JsonKind;
      start: number;
      bodyStart: number;
      body: JsonBody<TagKind>;
      attributes: string | null;
    };

/**
 * The streaming parser for tag dialects: `<name>…</name>` text blocks streamed as pieces,
 * JSON blocks buffered and scanned JSON-aware, a bare `<end>`, and `<action …>` opening
 * tags with attributes.
 */
export class TagParser extends Scanner {
  private mode: Mode = { kind: "outside" };
  private readonly outside: OutsideText;
  private responses = 0;

  constructor(
    private readonly grammar: TagGrammar,
    options: ParserOptions = {},
  ) {
    super(options);
    this.outside = new OutsideText(this.emit, grammar.outsideText, grammar.name);
  }

  protected step(pos: number, final: boolean): number {
    const mode = this.mode;
    switch (mode.kind) {
      case "outside":
        return this.stepOutside(pos, final);
      case "text":
        return this.stepText(mode, pos, final);
      case "tag":
        return this.stepTag(mode, pos);
      case "json":
        return this.stepJson(mode, pos, final);
    }
  }

  protected finish(): boolean {
    const more = this.finishBlock();
    if (!more) this.grammar.finish?.(this.emit);
    return more;
  }

  private finishBlock(): boolean {
    const mode = this.mode;
    const end = this.offset;
    switch (mode.kind) {
      case "outside":
        this.outside.close();
        return false;
      case "text": {
        const held = mode.held === undefined ? "" : mode.held.parts.join("");
        const at = mode.held === undefined ? -1 : trailingThink(held, this.thinkMarkers());
        if (mode.held !== undefined && at >= 0) {
          // Reasoning written after a response the answer never closed (`ThinkWriter`):
          // the response ends, unclosed, where it starts, and it is read again as thinking.
          const start = mode.held.start;
          mode.held = undefined;
          if (at > 0) this.textPiece(mode, held.slice(0, at), start);
          this.flushText(mode);
          this.unclosed(mode.event, { start: mode.start, end: start + at });
          this.mode = { kind: "outside" };
          this.rebase(held.slice(at), start + at);
          return true;
        }
        this.releaseHeld(mode);
        this.flushText(mode);
        this.unclosed(mode.event, { start: mode.start, end });
        return false;
      }
      case "tag":
        this.unclosed("action", { start: mode.tag.start, end }, mode.tag.raw());
        return false;
      case "json": {
        const recovered = mode.body.recoverAtEnd();
        if (recovered !== null) {
          this.recover(mode, recovered.bodyLength, recovered.marker.text.length, "");
          return true;
        }
        const body = mode.body.text();
        const at = mode.body.tooLarge ? -1 : trailingThink(body, this.thinkMarkers());
        if (at >= 0) {
          // Reasoning written after a block the answer never closed: read again as thinking.
          const start = mode.bodyStart + at;
          this.unclosed(mode.block, { start: mode.start, end: start }, body.slice(0, at));
          this.mode = { kind: "outside" };
          this.rebase(body.slice(at), start);
          return true;
        }
        this.unclosed(mode.block, { start: mode.start, end }, body);
        return false;
      }
    }
  }

  private stepOutside(pos: number, final: boolean): number {
    const buffer = this.buffer;
    const triggers = this.grammar.triggers;
    let k = triggers.next(buffer, pos);
    while (k >= 0) {
      const found = matchMarker(buffer, k, this.grammar.openers, final);
      if (found === PARTIAL) {
        if (k === pos) return NEED_MORE;
        this.outside.append(buffer.slice(pos, k), this.base + pos);
        return k;
      }
      if (found !== null) {
        if (k > pos) this.outside.append(buffer.slice(pos, k), this.base + pos);
        this.outside.close();
        this.open(found, this.base + k);
        return k + found.text.length;
      }
      k = triggers.next(buffer, k + 1);
    }
    this.outside.append(pos === 0 ? buffer : buffer.slice(pos), this.base + pos);
    return buffer.length;
  }

  private open(marker: Marker<TagKind>, start: number): void {
    const end = start + marker.text.length;
    const emit = this.emit;
    switch (marker.kind) {
      case "think":
      case "respond": {
        if (marker.kind === "respond" && this.grammar.singleResponse && this.responses++ > 0) {
          const message =
            "A second response block in one turn; only one is expected. Its text is still shown.";
          emit.error("duplicate_response", message, { start, end });
        }
        const id = emit.nextId();
        emit.piece(marker.kind, id, "", start, end);
        const closers = [this.grammar.closers[marker.kind]];
        // In a response, a think opener may start reasoning written after it (see `held`).
        const think = marker.kind === "respond" ? this.thinkMarkers() : undefined;
        if (think !== undefined) closers.push(think.opener);
        this.mode = { kind: "text", event: marker.kind, id, start, closers, run: new TextRun() };
        return;
      }
      case "execute":
      case "call":
      case "results":
        this.mode = this.jsonMode(marker.kind, start, end, "");
        return;
      case "action":
        this.mode = { kind: "tag", tag: new ActionTag(start, this.maxBlock) };
        return;
      case "end":
        emit.push({
          type: "end",
          id: emit.nextId(),
          timestamp: emit.now(),
          turn: emit.turn,
          span: { start, end },
        });
        return;
    }
  }

  private jsonMode(
    block: JsonKind,
    start: number,
    bodyStart: number,
    attributes: string | null,
  ): Mode {
    const body = new JsonBody(
      [this.grammar.closers[block]],
      this.grammar.triggers.codes,
      this.maxBlock,
    );
    return { kind: "json", block, start, bodyStart, body, attributes };
  }

  private stepText(mode: Extract<Mode, { kind: "text" }>, pos: number, final: boolean): number {
    const buffer = this.buffer;
    const triggers = this.grammar.triggers;
    let k = triggers.next(buffer, pos);
    while (k >= 0) {
      const found = matchMarker(buffer, k, mode.closers, final);
      if (found === PARTIAL) {
        if (k === pos) return NEED_MORE;
        this.textPiece(mode, buffer.slice(pos, k), this.base + pos);
        return k;
      }
      if (found !== null && found === this.thinkMarkers()?.opener) {
        // A think opener in a response: held from here, unless held already.
        if (k > pos) this.textPiece(mode, buffer.slice(pos, k), this.base + pos);
        if (mode.held === undefined) mode.held = { start: this.base + k, parts: [], length: 0 };
        this.textPiece(mode, found.text, this.base + k);
        return k + found.text.length;
      }
      if (found !== null) {
        if (k > pos) this.textPiece(mode, buffer.slice(pos, k), this.base + pos);
        this.releaseHeld(mode);
        this.flushText(mode);
        const end = this.base + k + found.text.length;
        this.emit.piece(mode.event, mode.id, "", this.base + k, end);
        this.mode = { kind: "outside" };
        return k + found.text.length;
      }
      k = triggers.next(buffer, k + 1);
    }
    this.textPiece(mode, pos === 0 ? buffer : buffer.slice(pos), this.base + pos);
    return buffer.length;
  }

  private textPiece(mode: Extract<Mode, { kind: "text" }>, text: string, at: number): void {
    const held = mode.held;
    if (held !== undefined) {
      held.parts.push(text);
      held.length += text.length;
      // Past the block bound it is the response's text after all: bounded, as a block is.
      if (held.length > this.maxBlock) this.releaseHeld(mode);
      return;
    }
    const shown = mode.run.append(text, at);
    if (shown !== null) this.emit.piece(mode.event, mode.id, shown, mode.run.start, mode.run.end);
  }

  /** A response's held text, out as the response's (its closer came, or it grew too long). */
  private releaseHeld(mode: Extract<Mode, { kind: "text" }>): void {
    const held = mode.held;
    if (held === undefined) return;
    mode.held = undefined;
    this.textPiece(mode, held.parts.join(""), held.start);
  }

  /** The grammar's think markers (every tag dialect has them). */
  private thinkMarkers(): { opener: Marker<TagKind>; closer: Marker<TagKind> } | undefined {
    const opener = this.grammar.openers.find((marker) => marker.kind === "think");
    return opener === undefined ? undefined : { opener, closer: this.grammar.closers.think };
  }

  private flushText(mode: Extract<Mode, { kind: "text" }>): void {
    const held = mode.run.close();
    if (held !== null) this.emit.piece(mode.event, mode.id, held, mode.run.start, mode.run.end);
  }

  /** An `<action …>` opening tag: attributes up to `>`, quotes respected (`ActionTag`). */
  private stepTag(mode: Extract<Mode, { kind: "tag" }>, pos: number): number {
    const { tag } = mode;
    const read = tag.read(this.buffer, pos);
    if (read === null) return this.buffer.length;
    const { at, code, text } = read;
    if (code !== 60 /* < */) {
      // With `{` the model forgot the `>` and went on with the body: the block still
      // closes at `</action>`, where the dialect reports the broken tag and runs nothing.
      const bodyStart = this.base + at + (code === 62 ? 1 : 0);
      this.mode = this.jsonMode("action", tag.start, bodyStart, code === 62 ? text : null);
      if (text === null && this.mode.kind === "json") this.mode.body.markTooLarge();
      return code === 62 ? at + 1 : at;
    }
    const span = { start: tag.start, end: this.base + at };
    if (text === null) {
      const message = `An <action> tag longer than ${this.maxBlock} characters.`;
      this.emit.error("block_too_large", message, span);
    } else {
      const message = 'The <action …> opening tag is not closed with ">"; nothing ran.';
      this.emit.error("invalid_action", message, span, { raw: `<action${text}` });
    }
    this.mode = { kind: "outside" };
    return at;
  }

  private stepJson(mode: Extract<Mode, { kind: "json" }>, pos: number, final: boolean): number {
    const scan = mode.body.scan(this.buffer, pos, final);
    switch (scan.kind) {
      case "more":
        return scan.at === pos && scan.at < this.buffer.length ? NEED_MORE : scan.at;
      case "closed": {
        const end = this.base + scan.at + scan.marker.text.length;
        this.closeJson(mode, mode.body.text(), end);
        return scan.at + scan.marker.text.length;
      }
      case "recover":
        return this.recover(
          mode,
          scan.bodyLength,
          scan.marker.text.length,
          this.buffer.slice(scan.at),
        );
    }
  }

  /** Closes the block at a swallowed marker and parses what followed it again. */
  private recover(
    mode: Extract<Mode, { kind: "json" }>,
    bodyLength: number,
    markerLength: number,
    rest: string,
  ) {
    const whole = mode.body.text();
    const end = mode.bodyStart + bodyLength + markerLength;
    this.closeJson(mode, whole.slice(0, bodyLength), end);
    return this.rebase(whole.slice(bodyLength + markerLength) + rest, end);
  }

  private closeJson(mode: Extract<Mode, { kind: "json" }>, text: string, end: number): void {
    this.mode = { kind: "outside" };
    const span = { start: mode.start, end };
    if (mode.body.tooLarge) {
      const message = `A ${this.openerText(mode.block)} block larger than ${this.maxBlock} characters; its content was dropped.`;
      this.emit.error("block_too_large", message, span);
    }
    if (mode.block === "results") {
      const message = `The model wrote a ${this.openerText("results")} block; results come from the system, so it is ignored.`;
      this.emit.error("model_wrote_results", message, span, { raw: text });
      return;
    }
    const { tooLarge, elements } = mode.body;
    const block = {
      kind: mode.block,
      text,
      tooLarge,
      bodyStart: mode.bodyStart,
      elements,
      span,
      attributes: mode.attributes,
    };
    this.grammar.closeJson(this.emit, block);
  }

  private unclosed(kind: TextKind | JsonKind, span: Span, raw?: string): void {
    const what = this.openerText(kind);
    const call = kind === "execute" || kind === "action" || kind === "call";
    const ran = call ? " Nothing in it ran." : "";
    const message = `The stream ended inside ${what} before its closing ${this.grammar.closers[kind].text}.${ran}`;
    this.emit.error("unclosed_block", message, span, raw === undefined ? {} : { raw });
  }

  private openerText(kind: TextKind | JsonKind): string {
    const opener = this.grammar.openers.find((marker) => marker.kind === kind);
    return opener === undefined ? kind : opener.text;
  }
}
