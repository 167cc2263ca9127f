/**
 * One captured model turn as records (docs/capture-proxy.md): the model's text deltas become `chunk`
 * records and are parsed into events; reasoning deltas become think text inside the
 * dialect's markers, so a replay re-parses them the same way. Pure apart from the injected
 * clocks: feed it deltas, it emits records.
 *
 * With `auto`, nothing is emitted until the dialect is decided: the text so far is held (at
 * most the detection window) and released, parsed, the moment a marker decides, or when the
 * answer begins plain text (not white space, a leading `<think>` block or a marker's start),
 * the window fills or the answer ends (then the request's own text, typically a system prompt
 * that describes the format, gets a say before the fallback).
 */

import { estimateTokens } from "../metrics/estimate";
import { cacheParts } from "../metrics/token-counts";
import {
  DEFAULT_DETECT_WINDOW,
  type DetectableDialect,
  detectDialect,
  LONGEST_MARKER,
  PlainTextWatch,
} from "../protocol/detect";
import type { ErrorEvent, MetricEvent, ProtocolEvent } from "../protocol/events";
import { createParser } from "../protocol/parser";
import type { RequestRecord, TranscriptRecord } from "../protocol/records";
import type { Parser } from "../protocol/scanner";
import { ThinkWriter } from "../protocol/think-writer";
import { nativeCallsText } from "../protocol/written-back";
import { createStreamRedactor, type StreamRedactor } from "../runtime/redact-stream";
import type { AnswerDelta } from "./answer-decoder";
import { type DialectChoice, parserFor } from "./dialect-choice";
import { NativeCalls } from "./native-calls";

/** Chunk records per call at most: a stream of one-character deltas is millions of records. */
export const MAX_CHUNKS_PER_CALL = 100_000;
export interface TurnRecorderOptions {
  turn: number;
  /** Named by the client, or the transcript's own: no detection then. */
  chosen?: Omit<DialectChoice, "parser">;
  /** What was sent, without `t`; emitted first, with the dialect choice in its settings. */
  request: Omit<RequestRecord, "t">;
  /** The request's text, for detection when the answer shows no marker. */
  requestText: string;
  /** ms since the call started (`t` of records). */
  elapsed: () => number;
  /** ms since the epoch (event timestamps). */
  clock: () => number;
  /** Model text recorded per call, in UTF-16 code units; the rest is not recorded. */
  maxChars: number;
  emit: (records: TranscriptRecord[]) => void;
  /** Called once, before the first record, with the dialect chosen. */
  onChoice?: (choice: DialectChoice) => void;
  /**
   * Values redacted from the model's text before it is recorded or parsed, like the
   * credential patterns: across deltas, so a key the model writes in pieces is caught too.
   */
  secrets?: readonly string[];
}

type Piece = { kind: "text" | "think"; text: string; t: number };

/** Held at most before the dialect is decided anyway (long reasoning counts too). */
const MAX_HELD_CHARS = 4 * DEFAULT_DETECT_WINDOW;
/**
 * Plain answer text held for a marker of its own when the request names no dialect: a sentence
 * or two before a call (a few seconds of a model's output), not a chat answer's whole length.
 */
const PLAIN_HOLD_CHARS = 512;

export class TurnRecorder {
  private choice: DialectChoice | undefined;
  private fromRequest: ReturnType<typeof detectDialect> | undefined;
  /** Where plain text began in the answer held (`PlainTextWatch`), once it has. */
  private plainAt = -1;
  /** Finds it a piece at a time (a long leading think block is not looked at again). */
  private readonly plainWatch = new PlainTextWatch();
  private parser: Parser | undefined;
  private held: Piece[] = [];
  private probe = "";
  private heldChars = 0;
  /** How much of `probe` detection has looked at: each call resumes there (linear). */
  private scanned = 0;
  /** Reasoning and answer text → wire text, once the dialect is decided. */
  private writer: ThinkWriter | undefined;
  private recorded = 0;
  private capped = false;
  /** Chunk records written: bounded apart from the text, since each delta is one. */
  private chunks = 0;
  private ended = false;
  private problems = 0;
  private readonly redactor: StreamRedactor;
  /** Native tool calls by their index in the answer, written out when the answer ends. */
  private readonly native: NativeCalls;
  /** Whether any wire text was written yet (native calls then start on a line of their own). */
  private written = false;
  /** The provider's usage, when it reported any; and when the first delta came. */
  private usage: Omit<Extract<AnswerDelta, { kind: "usage" }>, "kind"> = {};
  private firstAt: number | undefined;

  constructor(private readonly options: TurnRecorderOptions) {
    this.redactor = createStreamRedactor(options.secrets ?? []);
    this.native = new NativeCalls(options.maxChars);
    if (options.chosen !== undefined)
      this.decide({ ...options.chosen, parser: parserFor(options.chosen.dialect) });
  }

  get dialect(): DialectChoice | undefined {
    return this.choice;
  }

  /** The upstream's ids of the native calls written out, in the order they were written. */
  get nativeCallIds(): (string | undefined)[] {
    return this.native.sorted().map((call) => call.id);
  }

  push(deltas: readonly AnswerDelta[]): void {
    for (const delta of deltas) {
      if (this.ended) return;
      if (delta.kind === "problem") {
        this.flushHeld(true);
        this.flushRedactor();
        this.options.emit([this.errorRecord(delta.code ?? "provider", delta.message)]);
        continue;
      }
      if (delta.kind === "usage") {
        this.usage = { ...this.usage, ...delta };
        continue;
      }
      // The answer's id is for joining the next call (`capture.ts`), not the transcript's text.
      if (delta.kind === "response") continue;
      this.firstAt ??= this.options.elapsed();
      if (delta.kind === "tool") {
        this.addNative(delta);
        continue;
      }
      if (this.choice === undefined) {
        this.held.push({ kind: delta.kind, text: delta.text, t: this.options.elapsed() });
        this.heldChars += delta.text.length;
        if (delta.kind === "text") this.probe += delta.text;
        this.tryDecide(false);
      } else {
        this.write(delta.kind, delta.text, this.options.elapsed());
      }
    }
  }

  /**
   * No more of the answer is recorded (`message` says why, as an `internal` error): what was
   * held back is written first, so the recorded text ends where reading stopped.
   */
  stopRecording(message: string): void {
    if (this.ended || this.capped) return;
    this.flushHeld(true);
    this.flushRedactor();
    this.capped = true;
    this.options.emit([this.errorRecord("internal", message)]);
  }

  /** The answer is over (`failure` when it did not end cleanly). */
  end(failure?: { code: "provider"; message: string }): void {
    if (this.ended) return;
    this.flushHeld(true);
    const records: TranscriptRecord[] = [];
    if (this.native.size > 0) {
      const text = nativeCallsText((this.choice as DialectChoice).dialect, this.native.sorted());
      this.write("text", this.written ? `\n${text}` : text, this.options.elapsed());
    }
    if (this.writer !== undefined) {
      const writer = this.writer;
      this.put(writer.close() + writer.release(), this.options.elapsed());
    }
    this.flushRedactor();
    if (this.parser !== undefined) records.push(...this.events(this.parser.end()));
    if (failure !== undefined) records.push(this.errorRecord(failure.code, failure.message));
    const metric = this.metricRecord();
    if (metric !== undefined) records.push(metric);
    this.ended = true;
    if (records.length > 0) this.options.emit(records);
  }

  private addNative(delta: Extract<AnswerDelta, { kind: "tool" }>): void {
    if (this.native.add(delta) === "ok") return;
    this.flushHeld(true);
    this.options.emit([
      this.errorRecord(
        "internal",
        `The answer's native tool calls are over ${this.options.maxChars} characters: they reached the client but are not recorded (WIRESCOPE_PROXY_RECORD_MAX_KB).`,
      ),
    ]);
  }

  private tryDecide(final: boolean): void {
    // Resumed a marker's length back: one cut by the end of the last look is found whole.
    const from = final ? 0 : Math.max(0, this.scanned - LONGEST_MARKER);
    this.scanned = this.probe.length;
    const fromAnswer = detectDialect(this.probe, { final, from });
    if (fromAnswer.decided) {
      this.decide({ ...fromAnswer, by: "detected", parser: parserFor(fromAnswer.dialect) });
      return;
    }
    const full = this.probe.length >= DEFAULT_DETECT_WINDOW || this.heldChars >= MAX_HELD_CHARS;
    // Plain text before any marker: an answer in a dialect almost always opens with one, or
    // with a sentence before it ("I'll check the weather.\n<tool_call>…"). When the request's
    // markers name a dialect they decide at once; else the answer is held for a short while
    // more (`PLAIN_HOLD_CHARS`) for a marker of its own, so a chat agent's answer still streams.
    if (this.plainAt < 0 && !final && !full) this.plainAt = this.plainWatch.start(this.probe);
    const plainAt = final || full ? -1 : this.plainAt;
    const fromRequest = this.requestDialect();
    const plainDecides =
      plainAt >= 0 && (fromRequest.decided || this.probe.length - plainAt >= PLAIN_HOLD_CHARS);
    // Reasoning before any answer text says nothing of the dialect and can last minutes: when
    // the request's markers name one, it decides at once, so the reasoning shows as it comes.
    const reasoningFirst = this.probe === "" && this.heldChars > 0 && fromRequest.decided;
    if (!final && !full && !plainDecides && !reasoningFirst) return;
    const by = fromRequest.decided ? "detected" : "fallback";
    const answer =
      plainAt >= 0
        ? `the answer begins with plain text (offset ${plainAt}), no marker before it`
        : reasoningFirst && !final && !full
          ? "the answer begins with reasoning"
          : "the answer shows no marker";
    const reason = fromRequest.decided
      ? `${answer}; the request does: ${fromRequest.reason}`
      : plainAt >= 0
        ? `${answer} and the request shows none; xml`
        : `neither the answer nor the request shows a dialect marker; xml`;
    this.decide({
      dialect: fromRequest.dialect,
      by,
      reason,
      parser: parserFor(fromRequest.dialect),
    });
  }

  /**
   * The dialect the request's text shows, looked for once and in all of it (a system prompt
   * may describe its format after 16 K of other instructions).
   */
  private requestDialect(): ReturnType<typeof detectDialect> {
    this.fromRequest ??= detectDialect(this.options.requestText, {
      final: true,
      windowChars: this.options.requestText.length,
    });
    return this.fromRequest;
  }

  private decide(choice: DialectChoice): void {
    this.choice = choice;
    this.options.onChoice?.(choice);
    this.parser = createParser(choice.parser, {
      turn: this.options.turn,
      clock: this.options.clock,
    });
    const { request } = this.options;
    const capture = {
      dialect: choice.dialect,
      parser: choice.parser,
      chosenBy: choice.by,
      reason: choice.reason,
    };
    // Sent when the call began (the recorder's clock starts there), whenever it is recorded.
    this.options.emit([{ ...request, t: 0, settings: { ...request.settings, capture } }]);
    const held = this.held;
    this.held = [];
    this.heldChars = 0;
    this.probe = "";
    for (const piece of held) this.write(piece.kind, piece.text, piece.t);
  }

  private flushHeld(final: boolean): void {
    if (this.choice === undefined) this.tryDecide(final);
  }

  /**
   * One delta as wire text (`ThinkWriter`, as the playground writes it): reasoning in think
   * markers, markers in it broken, `§respond: ` before unmarked answer text after it.
   */
  private write(kind: "text" | "think", text: string, t: number): void {
    this.writer ??= new ThinkWriter((this.choice as DialectChoice).dialect);
    this.put(kind === "think" ? this.writer.think(text) : this.writer.text(text), t);
  }

  private put(wire: string, t: number): void {
    if (wire === "") return;
    this.written = true;
    const released = this.redactor.push(wire, t);
    if (released === "") return;
    // Text the redactor held back keeps the time it arrived (replays pace by `t`).
    this.chunk(released, this.redactor.releasedAt);
  }

  /** What the redactor still holds (a tail that might have become a secret), now final. */
  private flushRedactor(): void {
    if (this.choice === undefined) return;
    const rest = this.redactor.end();
    if (rest !== "") this.chunk(rest, this.redactor.releasedAt);
  }

  private chunk(text: string, t: number): void {
    if (this.capped) return;
    if (this.chunks >= MAX_CHUNKS_PER_CALL) {
      this.capped = true;
      this.options.emit([
        this.errorRecord(
          "internal",
          `Recording stopped after ${MAX_CHUNKS_PER_CALL} chunks: the rest reached the client but is not recorded.`,
        ),
      ]);
      return;
    }
    this.chunks += 1;
    const room = this.options.maxChars - this.recorded;
    const kept = text.length <= room ? text : text.slice(0, room);
    const records: TranscriptRecord[] = [];
    if (kept !== "") {
      this.recorded += kept.length;
      records.push({ kind: "chunk", turn: this.options.turn, t, text: kept });
      records.push(...this.events((this.parser as Parser).feed(kept)));
    }
    if (kept.length < text.length) {
      this.capped = true;
      records.push(
        this.errorRecord(
          "internal",
          `Recording stopped after ${this.options.maxChars} characters of model text: the rest reached the client but is not recorded (WIRESCOPE_PROXY_RECORD_MAX_KB).`,
        ),
      );
    }
    if (records.length > 0) this.options.emit(records);
  }

  private events(events: readonly ProtocolEvent[]): TranscriptRecord[] {
    return events.map((event) => ({ kind: "event", event }));
  }

  /**
   * The turn's `metric`, when the provider reported usage (a count it left out is estimated
   * from the text, and the metric says `mixed`). Without usage there is none: `lib/metrics`
   * estimates such a turn from its request and chunks.
   */
  private metricRecord(): TranscriptRecord | undefined {
    const { input, output, cacheRead, cacheWrite, cacheWrite1h } = this.usage;
    if (input === undefined && output === undefined) return undefined;
    const durationMs = this.options.elapsed();
    const step: MetricEvent["step"] = {
      input: input ?? estimateTokens(this.options.requestText),
      output: output ?? Math.ceil(this.recorded / 4),
      durationMs,
      // None when no text came (it read "ttft 0 ms").
      ...(this.firstAt === undefined ? {} : { ttftMs: this.firstAt }),
    };
    // Parts of a reported input only (an estimated one has no cache counts), cut to fit in it.
    if (input !== undefined)
      Object.assign(step, cacheParts(input, cacheRead, cacheWrite, cacheWrite1h));
    const event: MetricEvent = {
      type: "metric",
      id: `t${this.options.turn}-capture-metric`,
      timestamp: this.options.clock(),
      turn: this.options.turn,
      step,
      total: { input: step.input, output: step.output, durationMs },
      tokenSource: input !== undefined && output !== undefined ? "provider" : "mixed",
    };
    return { kind: "event", event };
  }

  private errorRecord(code: ErrorEvent["code"], message: string): TranscriptRecord {
    const event: ErrorEvent = {
      type: "error",
      id: `t${this.options.turn}-capture-${++this.problems}`,
      timestamp: this.options.clock(),
      turn: this.options.turn,
      code,
      message,
    };
    return { kind: "event", event };
  }
}

export type { DetectableDialect };
