/**
 * Recording proxied calls (docs/capture-proxy.md): each call is one model turn of a captured transcript.
 * `begin` reads the request (never its headers, only their values as secrets to redact),
 * finds or starts the conversation, and returns the call's recorder; the proxy hands it the
 * answer's bytes as they pass through. Every record is redacted before it reaches the sink.
 */
import type { DetectableDialect } from "../protocol/detect";
import type { ProtocolEvent, ToolCall } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { cutTitle } from "../store/meta";
import { startOf } from "../transcripts/title-source";
import { type AnswerApi, type AnswerDelta, createAnswerDecoder } from "./answer-decoder";
import { type Conversation, Conversations, prefixHashes } from "./conversations";
import type { DialectChoice } from "./dialect-choice";
import { headerSecrets, redactValue } from "./redaction";
import { messageCount, type RequestView, readRequest, requestText, textOf } from "./request-view";
import { echoedCallIds, readSentBack, sentBackEvents } from "./sent-back";
import type { CaptureSink } from "./sink";
import { TurnRecorder } from "./turn-recorder";
import type { Upstream } from "./upstreams";

export interface CaptureOptions {
  sink: CaptureSink;
  /** The server's configured keys. */
  secrets: readonly string[];
  /** Model text recorded per call (UTF-16 code units); also caps a whole JSON answer read. */
  maxRecordChars: number;
  /** Messages a request may have and be recorded with them (`MAX_RECORDED_MESSAGES`). */
  maxMessages?: number;
  /** ms since the epoch. */
  now?: () => number;
  /** A monotonic ms clock for `t`. */
  elapsed?: () => number;
  newId?: () => string;
}

export interface CallToCapture {
  upstream: Upstream;
  /** The API called (default: the upstream's format; `responses` for its `/responses`). */
  api?: AnswerApi;
  body: unknown;
  /**
   * Why the body could not be read (a content coding that does not decode): the call is
   * recorded without its messages, this note as an `internal` error after its request.
   */
  unreadable?: string;
  headers: Headers;
  /** Named by the client, or `auto`. */
  dialect: DetectableDialect | "auto";
  namedBy?: "header" | "query";
  session?: string;
  /**
   * How long before `begin` the call went upstream, ms: the recording begins once the answer is
   * on its way back, and the call's times (its request at 0, time to first token, duration)
   * count from when it was sent.
   */
  sentAgoMs?: number;
  /**
   * Breaks the proxied call off: a user's stop of its run (`POST /api/runs/:runId/stop`, on
   * any instance). The proxy then ends the recording with `end("user")`.
   */
  stop: () => void;
}

export interface CapturedCall {
  transcriptId: string;
  /** The upstream answered: its status and content type decide how the bytes are read. */
  response(status: number, contentType: string): void;
  push(bytes: Uint8Array): void;
  /**
   * Recording could not keep up with the answer (`message` says how far behind it was): the
   * rest of the answer is not read for the recording, and an `internal` error says so.
   */
  fellBehind(message: string): void;
  /**
   * The answer ended; `failure` when it broke off, `disconnect` when the client left, `user`
   * when a user stopped it (`CallToCapture.stop`).
   */
  end(outcome?: CallOutcome): Promise<void>;
}

/** How a call ended early (none: it ended as the upstream sent it). */
export type CallOutcome = { failure: string } | "disconnect" | "user";

const ERROR_BODY_CHARS = 4096;

/**
 * More messages than any agent's history, and about 0.1 s of reading and hashing at most: a
 * request of millions of tiny ones held the one event loop for seconds (4 million one-byte
 * `input` items, an 8 MB body: 10 s of CPU; a 32 MiB body holds 16 million).
 */
export const MAX_RECORDED_MESSAGES = 20_000;

export function createCapture(options: CaptureOptions) {
  const now = options.now ?? Date.now;
  const elapsedClock = options.elapsed ?? (() => performance.now());
  const newId = options.newId ?? (() => crypto.randomUUID());
  const conversations = new Conversations(newId);

  function begin(call: CallToCapture): CapturedCall | undefined {
    const api = call.api ?? call.upstream.format;
    const maxMessages = options.maxMessages ?? MAX_RECORDED_MESSAGES;
    const count = messageCount(call.body, api);
    const tooMany = count > maxMessages;
    const view =
      call.unreadable === undefined && !tooMany ? readRequest(call.body, api) : unreadView();
    if (view === undefined) return undefined;
    const secrets = [
      ...options.secrets,
      ...headerSecrets([...call.headers, ...(view.toolHeaders ?? [])]),
    ];
    const redact = <T>(value: T): T => redactValue(value, secrets);
    const hashes = prefixHashes(view.messages);
    let echoed: Set<string> | undefined;
    const echoes = (waiting: Conversation) => {
      echoed ??= echoedCallIds(view.messages);
      const ids = echoed;
      return waiting.nativeIds?.some((id) => id !== undefined && ids.has(id)) ?? false;
    };
    const { conversation, isNew, from } = conversations.join(
      call.session,
      hashes,
      echoes,
      view.continues,
    );
    conversations.advance(conversation, hashes);
    const turn = conversation.nextTurn++;
    const runId = newId();
    const started = elapsedClock() - (call.sentAgoMs ?? 0);
    const elapsed = () => Math.round((elapsedClock() - started) * 1000) / 1000;
    let ids = 0;
    const nextId = () => `t${turn}-sent-${++ids}`;
    const news = isNew ? lastUserMessage(view.messages) : view.messages.slice(from);
    const before = sentBackEvents(
      readSentBack(news),
      conversation.calls,
      conversation.callsTurn,
      now,
      nextId,
      conversation.nativeIds,
    );
    const calls: ToolCall[] = [];
    let note = tooMany
      ? `The request has ${count} messages, more than the ${maxMessages} a recording reads (each is hashed to join its conversation, on the server's one thread): they are not recorded, nor joined by.`
      : call.unreadable;
    const emit = (records: readonly TranscriptRecord[]) => {
      const out: TranscriptRecord[] = [];
      for (const record of records) {
        if (record.kind === "event" && record.event.type === "call") calls.push(record.event.call);
        out.push(record);
        // Why the request shows no messages, right after it.
        if (record.kind === "request" && note !== undefined) {
          out.push(unreadableRecord(turn, note, now()));
          note = undefined;
        }
      }
      options.sink.append(runId, out.map(redact));
    };
    const onChoice = (choice: DialectChoice) => {
      const create = conversation.started
        ? undefined
        : {
            id: conversation.transcriptId,
            title: titleOf(view.messages, `${call.upstream.name} · ${view.model}`, (text) =>
              redactValue(text, secrets),
            ),
            dialect: choice.parser,
            model: { provider: call.upstream.name, id: view.model },
            system: redact(view.system),
            tools: view.tools,
            source: "capture" as const,
          };
      conversation.started = true;
      conversation.choice ??= choice;
      options.sink.startTurn({
        transcriptId: conversation.transcriptId,
        runId,
        turn,
        stop: call.stop,
        ...(create === undefined ? {} : { create }),
      });
      emit(before.map((event): TranscriptRecord => ({ kind: "event", event })));
    };
    const recorder = new TurnRecorder({
      turn,
      ...chosenFor(call, conversation),
      request: {
        kind: "request",
        turn,
        provider: call.upstream.name,
        model: view.model,
        messages: view.messages,
        settings: view.settings,
      },
      requestText: requestText(view),
      elapsed,
      clock: now,
      maxChars: options.maxRecordChars,
      secrets,
      emit,
      onChoice,
    });

    let read: ((bytes: Uint8Array) => void) | undefined;
    let finish = (): string | undefined => undefined;
    return {
      transcriptId: conversation.transcriptId,
      response(status, contentType) {
        if (status >= 200 && status < 300) {
          const decoder = createAnswerDecoder(
            api,
            contentType.includes("text/event-stream"),
            options.maxRecordChars * 2,
          );
          // The answer's id, as soon as it shows: a call naming it continues this conversation.
          const take = (deltas: AnswerDelta[]) => {
            for (const delta of deltas)
              if (delta.kind === "response") conversations.answered(conversation, delta.id);
            recorder.push(deltas);
          };
          read = (bytes) => take(decoder.push(bytes));
          finish = () => {
            // Cut short (`fellBehind`): what the decoder holds is a part of the answer, not its end.
            if (read !== undefined) take(decoder.end());
            return undefined;
          };
          return;
        }
        const text = new TextDecoder();
        let body = "";
        read = (bytes) => {
          if (body.length < ERROR_BODY_CHARS) body += text.decode(bytes, { stream: true });
        };
        finish = () => `The upstream answered ${status}: ${body.slice(0, ERROR_BODY_CHARS)}`;
      },
      push(bytes) {
        read?.(bytes);
      },
      fellBehind(message) {
        if (read === undefined) return;
        read = undefined;
        recorder.stopRecording(message);
      },
      async end(outcome) {
        const failure = finish() ?? (typeof outcome === "object" ? outcome.failure : undefined);
        recorder.end(failure === undefined ? undefined : { code: "provider", message: failure });
        if (outcome === "disconnect" || outcome === "user") {
          const event: ProtocolEvent = {
            type: "interrupt",
            id: `t${turn}-${outcome === "user" ? "stop" : "disconnect"}`,
            timestamp: now(),
            reason: outcome,
          };
          emit([{ kind: "event", event }]);
        }
        conversation.calls = calls;
        conversation.callsTurn = turn;
        conversation.nativeIds = recorder.nativeCallIds;
        conversation.unanswered =
          failure !== undefined || outcome === "disconnect" || outcome === "user";
        await options.sink.finishTurn(runId);
      },
    };
  }

  return {
    begin,
    sessionDecided: (session: string) => conversations.sessionChoice(session) !== undefined,
  };
}

export interface Capture {
  begin(call: CallToCapture): CapturedCall | undefined;
  /**
   * Whether the conversation this `x-wirescope-session` names already has its dialect (its
   * transcript's first turn chose it): a call of it is then a run as soon as it arrives.
   */
  sessionDecided?(session: string): boolean;
}

function chosenFor(
  call: CallToCapture,
  conversation: Conversation,
): { chosen?: Omit<DialectChoice, "parser"> } {
  const kept = conversation.choice;
  if (kept !== undefined) {
    const asked =
      call.dialect !== "auto" && call.dialect !== kept.dialect
        ? ` (${call.dialect} was asked for; a transcript keeps one dialect)`
        : "";
    return {
      chosen: {
        dialect: kept.dialect,
        by: "transcript",
        reason: `the transcript's dialect, chosen on its first turn${asked}`,
      },
    };
  }
  if (call.dialect === "auto") return {};
  const by = call.namedBy ?? "header";
  const where = by === "query" ? "?dialect=" : "the x-wirescope-dialect header";
  return { chosen: { dialect: call.dialect, by, reason: `named by ${where}` } };
}

/** A request whose body could not be read: no messages, nothing to join by. */
function unreadView(): RequestView {
  return { model: "", messages: [], settings: {}, system: "", tools: [], streaming: false };
}

function unreadableRecord(turn: number, message: string, timestamp: number): TranscriptRecord {
  const event: ProtocolEvent = {
    type: "error",
    id: `t${turn}-unreadable-request`,
    timestamp,
    turn,
    code: "internal",
    message,
  };
  return { kind: "event", event };
}

/** The newest user message alone: what a new transcript shows as its prompt. */
function lastUserMessage(messages: readonly unknown[]): unknown[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index] as { role?: unknown } | undefined;
    if (message?.role === "user") return [message];
  }
  return [];
}

/** How much of the last user message a title is cut from (`startOf`). */
const TITLE_SOURCE_CHARS = 4096;

/**
 * The last user message's start, redacted before it is cut: a key cut first is no longer the
 * key, and its first 79 characters were stored as the title (the agent's own token, pasted
 * in its message, matched by no credential pattern).
 */
function titleOf(
  messages: readonly unknown[],
  fallback: string,
  redact: (text: string) => string,
): string {
  const [user] = lastUserMessage(messages) as { content?: unknown }[];
  const text = redact(startOf(textOf(user?.content).trimStart(), TITLE_SOURCE_CHARS))
    .replace(/\s+/g, " ")
    .trim();
  if (text === "") return fallback;
  return cutTitle(text, 80);
}
