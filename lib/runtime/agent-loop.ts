import type { LanguageModel } from "ai";
import type { DialectDefinition } from "../protocol/definition";
import {
  type Dialect,
  type ErrorEvent,
  type InterruptReason,
  PERSISTED,
  type ProtocolEvent,
} from "../protocol/events";
import { createParser } from "../protocol/parser";
import type { TranscriptRecord } from "../protocol/records";
import { failuresInARow } from "./breaker";
import { assembleContext } from "./context";
import { cacheCounts, estimateTokens, MetricTracker, tokenSourceOf } from "./metrics";
import { type CallSettings, type StreamTurn, streamModelTurn } from "./model-turn";
import { describeProviderError } from "./provider-errors";
import type { RunExecution } from "./turn-execution";
import type { ReportedUsage } from "./usage";

export interface AgentRunOptions {
  /** A built-in dialect, or a user-defined one (docs/dialects/custom.md). */
  dialect: Dialect | DialectDefinition;
  model: LanguageModel;
  /** Names the model in request records (never a key or URL with credentials). */
  modelRef: { provider: string; id: string };
  system: string;
  /** The conversation so far (persisted events of earlier runs), for context assembly. */
  history: readonly ProtocolEvent[];
  /** The user's message; absent to resume a conversation that ends where the model owes a turn. */
  message?: string;
  settings?: CallSettings;
  /** How calls run (a parallel batch, or the action scheduler); given the loop's emit. */
  execution: (emit: (event: ProtocolEvent) => void) => RunExecution;
  maxTurns?: number;
  /** Consecutive failed results that end the run (default 3). */
  breakerLimit?: number;
  signal: AbortSignal;
  now: () => number;
  /** Unique ids for events the runtime makes; also prefixes parser ids. */
  newId: () => string;
  /** Every record, in order, the moment it exists. */
  emit: (record: TranscriptRecord) => void;
  /** Index of this run's first model turn (turns count across the conversation). */
  firstTurn?: number;
  /** Hands out turn numbers; shared with nested sub-agent runs so turns stay unique. */
  turns?: TurnCounter;
  /** Events of a nested sub-agent run carry the parent call's id. */
  parent?: string;
  streamTurn?: StreamTurn;
}

export interface TurnCounter {
  next(): number;
}

export function turnCounter(first = 0): TurnCounter {
  let next = first;
  return { next: () => next++ };
}

export type StopReason = "end" | "no_calls" | "max_turns" | "breaker" | "error" | "interrupt";

export interface RunOutcome {
  reason: StopReason;
  turns: number;
  /** The last respond text of the run (a sub-agent's output). */
  answer: string;
}

/** Parser errors that mean "your tool call was malformed": reported back to the model as failures. */
const CALL_ERRORS = new Set(["invalid_json", "invalid_call", "invalid_action"]);

/**
 * The agent loop (docs/tools-and-context.md): model stream → parser → tools → results in the dialect's format
 * → next turn, until the model ends, a turn has no calls, the turn limit, a run-stopping
 * error or an interrupt. Generation stops at the execute boundary: text after it is recorded
 * as raw chunks but never parsed into events or run.
 */
export async function runAgent(options: AgentRunOptions): Promise<RunOutcome> {
  const { dialect, now, newId, signal } = options;
  const maxTurns = options.maxTurns ?? 10;
  const breakerLimit = options.breakerLimit ?? 3;
  const streamTurn = options.streamTurn ?? streamModelTurn;
  const conversation: ProtocolEvent[] = [...options.history];
  const started = now();
  const metrics = new MetricTracker();
  let consecutiveFailures = 0;
  let answer = "";

  const emitEvent = (event: ProtocolEvent) => {
    const stamped = options.parent === undefined ? event : { ...event, parent: options.parent };
    options.emit({ kind: "event", event: stamped });
    if (PERSISTED[stamped.type]) conversation.push(stamped);
  };
  const runtimeError = (code: ErrorEvent["code"], message: string) =>
    emitEvent({ type: "error", id: newId(), timestamp: now(), code, message });
  const interrupted = (): RunOutcome => {
    const reason = interruptReason(signal.reason);
    emitEvent({ type: "interrupt", id: newId(), timestamp: now(), reason });
    return { reason: "interrupt", turns: metrics.turns, answer };
  };

  if (options.message !== undefined)
    emitEvent({ type: "user", id: newId(), timestamp: now(), content: options.message });
  const prefix = newId();
  const execution = options.execution(emitEvent);
  const turns = options.turns ?? turnCounter(options.firstTurn ?? 0);
  const outcome = await loop();
  await execution.drain();
  return outcome;

  async function loop(): Promise<RunOutcome> {
    for (let index = 0; ; index++) {
      if (signal.aborted) return interrupted();
      if (index >= maxTurns) {
        runtimeError(
          "max_turns",
          `Stopped after ${maxTurns} model turns without an end; raise the turn limit or simplify the task.`,
        );
        return { reason: "max_turns", turns: metrics.turns, answer };
      }
      const turn = turns.next();
      const turnStart = now();
      const messages = assembleContext(dialect, options.system, conversation);
      const settings = options.settings ?? {};
      options.emit({
        kind: "request",
        turn,
        t: turnStart - started,
        provider: options.modelRef.provider,
        model: options.modelRef.id,
        messages,
        settings: { ...settings },
      });

      const generation = new AbortController();
      const stopGeneration = () => generation.abort(signal.reason);
      signal.addEventListener("abort", stopGeneration, { once: true });
      const parser = createParser(dialect, { turn, clock: now, idPrefix: `${prefix}.t${turn}-` });
      const callErrors: ErrorEvent[] = [];
      let boundary = false;
      let sawEnd = false;
      let firstTokenAt: number | undefined;
      let lastChunkAt = Number.NEGATIVE_INFINITY;
      let text = "";
      let usage: ReportedUsage = {};
      let failure: unknown;
      let lastRespondId = "";
      const responses = new Map<string, string>();

      const take = (events: ProtocolEvent[]) => {
        for (const event of events) {
          // The turn is over at its execute boundary (docs/dialects/xml.md) or at the model's end.
          if (boundary || sawEnd) return;
          emitEvent(event);
          if (event.type === "call") {
            execution.onCall(event);
          } else if (event.type === "execute") {
            boundary = true;
            execution.onExecute();
            generation.abort("execute boundary");
          } else if (event.type === "end") {
            sawEnd = true;
            generation.abort("end");
          } else if (event.type === "respond") {
            answer = event.id === lastRespondId ? answer + event.content : event.content;
            lastRespondId = event.id;
            responses.set(event.id, (responses.get(event.id) ?? "") + event.content);
          } else if (event.type === "error" && CALL_ERRORS.has(event.code)) {
            callErrors.push(event);
          }
        }
      };

      try {
        for await (const part of streamTurn({
          model: options.model,
          messages,
          settings,
          signal: generation.signal,
          now,
        })) {
          if (part.type === "text") {
            // Never before the chunk before it: a part let go of late says when it came, which
            // may be before this loop noted the part that came out ahead of it.
            const at = Math.max(part.at ?? now(), lastChunkAt);
            lastChunkAt = at;
            firstTokenAt ??= at;
            text += part.text;
            options.emit({ kind: "chunk", turn, t: at - started, text: part.text });
            if (!boundary && !sawEnd) take(parser.feed(part.text));
          } else if (part.type === "finish") {
            usage = part;
          } else if (part.type === "error") {
            failure = part.error;
          }
        }
      } finally {
        signal.removeEventListener("abort", stopGeneration);
      }
      if (!boundary && !sawEnd) {
        // A block the user cut off (Stop) is not a protocol fault: it ends quietly and only the
        // interrupt is shown. Other faults the end finds (stray text) are still reported.
        const ended = parser.end();
        take(signal.aborted ? ended.filter((event) => !isUnclosedBlock(event)) : ended);
      }

      // What the turn's last text set off without I/O (an action dialect's `calculate`) reports
      // before the turn's metric, however few promise steps the stream took to end.
      await afterPendingSteps();
      const turnEnd = now();
      metrics.add(
        emitEvent,
        newId,
        turnEnd,
        {
          input:
            usage.inputTokens ??
            estimateTokens(messages.map((message) => message.content).join("\n")),
          output: usage.outputTokens ?? estimateTokens(text),
          durationMs: turnEnd - turnStart,
          ...(firstTokenAt === undefined ? {} : { ttftMs: firstTokenAt - turnStart }),
          ...cacheCounts(usage),
        },
        { turn, tokenSource: tokenSourceOf(options.modelRef.provider, usage) },
      );

      if (signal.aborted) {
        execution.abandonTurn("Not run: the run was interrupted.");
        return interrupted();
      }
      if (failure !== undefined) {
        execution.abandonTurn("Not run: the model provider failed.");
        runtimeError("provider", describeProviderError(failure));
        return { reason: "error", turns: metrics.turns, answer };
      }

      const results = await execution.finishTurn(callErrors);
      if (signal.aborted) return interrupted();
      for (const text of responses.values()) {
        const unknown = execution.unknownVariables?.(text) ?? [];
        if (unknown.length === 0) continue;
        const names = unknown.map((name) => `$${name}`).join(", ");
        runtimeError(
          "unknown_variable",
          `The response uses ${names}, which no action of this run produced; it is shown as written.`,
        );
      }
      for (const result of results) {
        consecutiveFailures = failuresInARow(consecutiveFailures, result.payload.status);
        if (consecutiveFailures >= breakerLimit) {
          runtimeError(
            "circuit_breaker",
            `${breakerLimit} tool results in a row failed; the run was stopped. Check the tools' errors above.`,
          );
          return { reason: "breaker", turns: metrics.turns, answer };
        }
      }
      if (results.length > 0) continue;
      if (sawEnd) return { reason: "end", turns: metrics.turns, answer };
      // Nothing ran (no calls, or calls that never reached an execute): the run is over.
      emitEvent({ type: "end", id: newId(), timestamp: now(), turn });
      return { reason: "no_calls", turns: metrics.turns, answer };
    }
  }
}

/**
 * Resolves once the promise steps queued so far, and those they queue, have all run: Node runs
 * `process.nextTick` callbacks only when the microtask queue is empty. No I/O or timer comes first.
 */
function afterPendingSteps(): Promise<void> {
  return new Promise((resolve) => process.nextTick(resolve));
}

function isUnclosedBlock(event: ProtocolEvent): boolean {
  return event.type === "error" && event.code === "unclosed_block";
}

function interruptReason(reason: unknown): InterruptReason {
  return reason === "timeout" || reason === "disconnect" || reason === "crash" ? reason : "user";
}
