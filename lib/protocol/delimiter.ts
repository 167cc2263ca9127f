import { callShapeProblem, type FieldNames, toToolCall } from "./call-shape";
import { callFields, DELIMITER_DEFINITION, type DelimiterDefinition } from "./definition";
import type { ParserOptions } from "./emitter";
import type { Span } from "./events";
import { JsonBody } from "./json-body";
import {
  type Marker,
  matchMarker,
  PARTIAL,
  type Triggers,
  triggersOf,
  wordBoundary,
} from "./markers";
import { safeParseJson } from "./safe-json";
import { NEED_MORE, Scanner } from "./scanner";
import { TextRun } from "./text-run";

type DelimiterKind = "think" | "call" | "execute" | "respond" | "end" | "results";

/**
 * Seed 000's markers, or a `delimiter` definition's. A marker ending in a word character
 * needs a non-word character after it (`§end` is not `§endpoint`). The results marker
 * (`[SYSTEM:`) is how results are fed back; a model writing it forges them.
 */
function markersOf(definition: DelimiterDefinition): Marker<DelimiterKind>[] {
  const kinds: DelimiterKind[] = ["think", "call", "execute", "respond", "end", "results"];
  return kinds.map((kind) => {
    const text = definition[kind];
    const boundary = wordBoundary(text);
    return boundary === undefined ? { text, kind } : { text, kind, boundary };
  });
}

type Mode =
  | { kind: "text"; event: "think" | "respond"; id: string | null; run: TextRun; start: number }
  | {
      kind: "json";
      block: "call" | "results";
      start: number;
      bodyStart: number;
      body: JsonBody<DelimiterKind>;
    };

/**
 * The line-delimiter dialect: a marker's content runs to the next marker (or the end of
 * the stream) and is trimmed. Text before the first marker is a response, as in `xml`.
 */
export class DelimiterParser extends Scanner {
  /** Text before any marker is a marker-less respond block (id given on first content). */
  private mode: Mode = { kind: "text", event: "respond", id: null, run: new TextRun(), start: 0 };
  /** Calls seen since the last `§execute`: they run only once it arrives. */
  private pending: { id: string; span: Span; name: string }[] = [];

  private readonly markers: readonly Marker<DelimiterKind>[];
  private readonly triggers: Triggers;
  private readonly fields: FieldNames;

  constructor(
    private readonly definition: DelimiterDefinition = DELIMITER_DEFINITION,
    options: ParserOptions = {},
  ) {
    super(options);
    this.markers = markersOf(definition);
    this.triggers = triggersOf(this.markers);
    this.fields = callFields(definition);
  }

  protected step(pos: number, final: boolean): number {
    const mode = this.mode;
    if (mode.kind === "json") return this.stepJson(mode, pos, final);
    const buffer = this.buffer;
    const triggers = this.triggers;
    let k = triggers.next(buffer, pos);
    while (k >= 0) {
      const found = matchMarker(buffer, k, this.markers, final);
      if (found === PARTIAL) {
        if (k === pos) return NEED_MORE;
        this.textPiece(mode, buffer.slice(pos, k), this.base + pos);
        return k;
      }
      if (found !== null) {
        if (k > pos) this.textPiece(mode, buffer.slice(pos, k), this.base + pos);
        this.closeText(mode);
        this.open(found, this.base + k);
        return k + found.text.length;
      }
      k = triggers.next(buffer, k + 1);
    }
    this.textPiece(mode, pos === 0 ? buffer : buffer.slice(pos), this.base + pos);
    return buffer.length;
  }

  protected finish(): boolean {
    const mode = this.mode;
    if (mode.kind === "json") {
      const recovered = mode.body.recoverAtEnd();
      if (recovered !== null) {
        this.recover(mode, recovered.bodyLength, "");
        return true;
      }
      this.closeJson(mode, mode.body.text(), mode.body.length);
    } else {
      this.closeText(mode);
    }
    for (const call of this.pending) {
      const message = `The call to "${call.name}" was never followed by ${this.definition.execute}, so it did not run.`;
      this.emit.error("call_without_execute", message, call.span, {
        callId: call.id,
        tool: call.name,
      });
    }
    this.pending = [];
    return false;
  }

  private open(marker: Marker<DelimiterKind>, start: number): void {
    const end = start + marker.text.length;
    const emit = this.emit;
    const span = { start, end };
    switch (marker.kind) {
      case "think":
      case "respond": {
        const id = emit.nextId();
        emit.piece(marker.kind, id, "", start, end);
        this.mode = { kind: "text", event: marker.kind, id, run: new TextRun(), start };
        return;
      }
      case "call":
      case "results": {
        const body = new JsonBody(this.markers, this.triggers.codes, this.maxBlock);
        this.mode = { kind: "json", block: marker.kind, start, bodyStart: end, body };
        return;
      }
      case "execute":
        emit.push({
          type: "execute",
          id: emit.nextId(),
          timestamp: emit.now(),
          turn: emit.turn,
          span,
        });
        this.pending = [];
        break;
      case "end":
        emit.push({ type: "end", id: emit.nextId(), timestamp: emit.now(), turn: emit.turn, span });
        break;
    }
    // After a bare marker, text up to the next marker is a marker-less response.
    this.mode = { kind: "text", event: "respond", id: null, run: new TextRun(), start: end };
  }

  private textPiece(mode: Extract<Mode, { kind: "text" }>, text: string, at: number): void {
    const shown = mode.run.append(text, at);
    if (shown === null) return;
    mode.id ??= this.emit.nextId();
    this.emit.piece(mode.event, mode.id, shown, mode.run.start, mode.run.end);
  }

  private closeText(mode: Extract<Mode, { kind: "text" }>): void {
    const held = mode.run.close();
    if (held === null) return;
    // A lone high surrogate can be all there is: the run then gets its id only now.
    mode.id ??= this.emit.nextId();
    this.emit.piece(mode.event, mode.id, held, mode.run.start, mode.run.end);
  }

  private stepJson(mode: Extract<Mode, { kind: "json" }>, pos: number, final: boolean): number {
    const scan = mode.body.scan(this.buffer, pos, final);
    switch (scan.kind) {
      case "more":
        return scan.at === pos && scan.at < this.buffer.length ? NEED_MORE : scan.at;
      case "closed":
        // The marker is not consumed: it opens the next block.
        this.closeJson(mode, mode.body.text(), mode.body.length);
        return scan.at;
      case "recover":
        return this.recover(mode, scan.bodyLength, this.buffer.slice(scan.at));
    }
  }

  /** Closes the block before a swallowed marker (which opens the next block) and parses on from it. */
  private recover(mode: Extract<Mode, { kind: "json" }>, bodyLength: number, rest: string): number {
    const whole = mode.body.text();
    this.closeJson(mode, whole.slice(0, bodyLength), bodyLength);
    return this.rebase(whole.slice(bodyLength) + rest, mode.bodyStart + bodyLength);
  }

  /** Closes a call or results body of `length` characters (its raw `text`, untrimmed). */
  private closeJson(mode: Extract<Mode, { kind: "json" }>, text: string, length: number): void {
    this.mode = {
      kind: "text",
      event: "respond",
      id: null,
      run: new TextRun(),
      start: mode.bodyStart + length,
    };
    if (mode.body.tooLarge) {
      const span = {
        start: mode.start,
        end: mode.bodyStart + Math.min(length, mode.body.visibleEnd),
      };
      const what = this.definition[mode.block];
      const message = `A ${what} block larger than ${this.maxBlock} characters; its content was dropped.`;
      this.emit.error("block_too_large", message, span);
      return;
    }
    const trimmed = text.trimEnd();
    const span = { start: mode.start, end: mode.bodyStart + trimmed.length };
    const raw = trimmed.trim();
    const emit = this.emit;
    if (mode.block === "results") {
      const message = `The model wrote a ${this.definition.results} … results line; results come from the system, so it is ignored.`;
      emit.error("model_wrote_results", message, span, { raw });
      return;
    }
    const parsed = safeParseJson(raw);
    const fields = this.fields;
    const problem = parsed.ok
      ? callShapeProblem(parsed.value, fields)
      : `invalid JSON (${parsed.error})`;
    if (!parsed.ok || problem !== null) {
      const message = `The ${this.definition.call} is not a valid call: ${problem}. Write {"${fields.name}": "…", "${fields.args}": {…}}. It did not run.`;
      emit.error("invalid_call", message, span, { raw });
      return;
    }
    const id = emit.nextId();
    const call = toToolCall(id, parsed.value as Record<string, unknown>, fields);
    emit.push({ type: "call", id, timestamp: emit.now(), turn: emit.turn, span, call });
    this.pending.push({ id, span, name: call.name });
  }
}
