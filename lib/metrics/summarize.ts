import { priceFor } from "../cost/price-table";
import type { PriceTable } from "../cost/types";
import type { CallEvent, MetricEvent, ProtocolEvent, ResultEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { estimateMessagesTokens, estimateTokens } from "./estimate";
import { coveredMs } from "./intervals";
import { combineSources, runCost, turnCost } from "./totals";
import type { CallTiming, RunSummary, TokenSource, TurnMetrics } from "./types";

/** What a turn's text and request say, for turns the transcript has no metric for. */
export interface TurnText {
  raw: string;
  request?: { provider: string; model: string; messages: readonly unknown[] };
}

/** The input of `summarize`: events in order (pieces or merged) and each turn's text. */
export interface SummaryInput {
  events: readonly ProtocolEvent[];
  turns: ReadonlyMap<number, TurnText>;
}

export interface SummaryOptions {
  /** Prices to cost turns with; without it, costs are null. */
  prices?: PriceTable;
  /** The model of turns whose request is not in the transcript (its header's model). */
  model?: { provider: string; id: string };
}

/** The numbers of a transcript's records: what the store and a transcript file hold. */
export function summarizeRecords(
  records: readonly TranscriptRecord[],
  options: SummaryOptions = {},
): RunSummary {
  const events: ProtocolEvent[] = [];
  const turns = new Map<number, { raw: string; request?: TurnText["request"] }>();
  const turnText = (turn: number) => {
    let text = turns.get(turn);
    if (text === undefined) {
      text = { raw: "" };
      turns.set(turn, text);
    }
    return text;
  };
  for (const record of records) {
    if (record.kind === "event") events.push(record.event);
    else if (record.kind === "chunk") turnText(record.turn).raw += record.text;
    else turnText(record.turn).request = record;
  }
  return summarize({ events, turns }, options);
}

/** The numbers of events alone (no raw text or requests: unmeasured turns count 0 tokens). */
export function summarizeEvents(
  events: readonly ProtocolEvent[],
  options: SummaryOptions = {},
): RunSummary {
  return summarize({ events, turns: new Map() }, options);
}

interface TurnState {
  metrics: TurnMetrics;
  metric?: MetricEvent;
  firstAt: number;
  lastAt: number;
}

/**
 * Per-turn and whole-transcript metrics. Turns are every turn number the transcript mentions
 * (metrics, events, chunks, requests). A metric gives a turn its tokens, timing and token
 * source; a turn without one (an import, a capture, a crash) gets estimated tokens from its
 * text. A metric written without `turn` (older transcripts) goes to the earliest turn that
 * has none: the loop writes one per turn, in turn order.
 */
export function summarize(input: SummaryInput, options: SummaryOptions = {}): RunSummary {
  const states = new Map<number, TurnState>();
  const state = (turn: number): TurnState => {
    let found = states.get(turn);
    if (found === undefined) {
      found = { metrics: emptyTurn(turn), firstAt: 0, lastAt: 0 };
      states.set(turn, found);
    }
    return found;
  };
  for (const turn of input.turns.keys()) state(turn);

  const calls = new Map<string, CallEvent>();
  const results = new Map<string, ResultEvent>();
  const unturned: MetricEvent[] = [];
  for (const event of input.events) {
    const turn = eventTurn(event, calls);
    if (event.type === "call" && !calls.has(event.call.id)) calls.set(event.call.id, event);
    if (event.type === "result") results.set(event.callId, event);
    if (event.type === "metric" && event.turn === undefined) unturned.push(event);
    if (turn === undefined) continue;
    const found = state(turn);
    if (event.parent !== undefined) found.metrics.parent = event.parent;
    if (event.type === "metric") found.metric = event;
  }
  const waiting = [...states.values()]
    .filter((found) => found.metric === undefined)
    .sort((a, b) => a.metrics.turn - b.metrics.turn);
  for (const [index, metric] of unturned.entries()) {
    const found = waiting[index];
    if (found === undefined) break;
    found.metric = metric;
    if (metric.parent !== undefined) found.metrics.parent = metric.parent;
  }

  for (const found of states.values()) {
    measure(found, input.turns.get(found.metrics.turn), options);
  }
  attribute(input.events, states, calls, results);

  const perTurn = [...states.values()]
    .map((found) => found.metrics)
    .sort((a, b) => a.turn - b.turn);
  for (const turn of perTurn) {
    turn.toolTimeMs = coveredMs(
      turn.calls.flatMap((call) =>
        call.startAt === undefined || call.endAt === undefined
          ? []
          : [{ start: call.startAt, end: call.endAt }],
      ),
    );
  }
  return totals(perTurn, input.events);
}

function emptyTurn(turn: number): TurnMetrics {
  return {
    turn,
    measured: false,
    startAt: 0,
    ttftMs: null,
    modelMs: null,
    tokensIn: 0,
    tokensOut: 0,
    tokenSource: "estimate",
    toolCalls: 0,
    errors: 0,
    toolTimeMs: 0,
    wallMs: 0,
    calls: [],
    cost: null,
  };
}

/** The turn an event belongs to: its own, or its call's (results, tool errors). */
function eventTurn(
  event: ProtocolEvent,
  calls: ReadonlyMap<string, CallEvent>,
): number | undefined {
  if ("turn" in event && event.turn !== undefined) return event.turn;
  if (event.type === "result") return calls.get(event.callId)?.turn;
  if (event.type === "error" && event.callId !== undefined) return calls.get(event.callId)?.turn;
  return undefined;
}

function measure(found: TurnState, text: TurnText | undefined, options: SummaryOptions): void {
  const turn = found.metrics;
  const request = text?.request;
  const provider = request?.provider ?? options.model?.provider;
  const model = request?.model ?? options.model?.id;
  if (provider !== undefined) turn.provider = provider;
  if (model !== undefined) turn.model = model;
  const metric = found.metric;
  if (metric !== undefined) {
    turn.measured = true;
    turn.metricId = metric.id;
    turn.tokensIn = metric.step.input;
    turn.tokensOut = metric.step.output;
    turn.tokenSource = metric.tokenSource ?? "unknown";
    turn.ttftMs = metric.step.ttftMs;
    turn.modelMs = metric.step.durationMs;
    turn.startAt = metric.timestamp > 0 ? metric.timestamp - metric.step.durationMs : 0;
  } else {
    turn.tokensIn = request === undefined ? 0 : estimateMessagesTokens(request.messages);
    turn.tokensOut = estimateTokens(text?.raw ?? "");
    turn.tokenSource = "estimate";
  }
  if (options.prices !== undefined && provider !== undefined && model !== undefined) {
    const price = priceFor(options.prices, provider, model);
    if (price !== null) turn.cost = turnCost(turn.tokensIn, turn.tokensOut, price);
  }
}

/**
 * Counts calls and errors per turn, times each call, and measures the wall time of top-level
 * turns: from a turn's start to the last event before the next top-level turn or the next
 * user message (a new run). Errors without a turn go to the turn in progress (or the first).
 */
function attribute(
  events: readonly ProtocolEvent[],
  states: ReadonlyMap<number, TurnState>,
  calls: ReadonlyMap<string, CallEvent>,
  results: ReadonlyMap<string, ResultEvent>,
): void {
  let current: TurnState | undefined;
  const first = [...states.values()].sort((a, b) => a.metrics.turn - b.metrics.turn)[0];
  const pendingErrors: number[] = [];
  for (const event of events) {
    const turn = eventTurn(event, calls);
    const found = turn === undefined ? undefined : states.get(turn);
    if (event.parent === undefined && event.type === "user") current = undefined;
    if (found !== undefined && found.metrics.parent === undefined && found !== current) {
      if (current === undefined || found.metrics.turn > current.metrics.turn) current = found;
    }
    if (current !== undefined && event.timestamp > 0) {
      if (current.firstAt === 0) current.firstAt = event.timestamp;
      current.lastAt = Math.max(current.lastAt, event.timestamp);
    }
    if (event.type === "call" && found !== undefined && calls.get(event.call.id) === event) {
      found.metrics.toolCalls += 1;
      found.metrics.calls.push(callTiming(event, results.get(event.call.id)));
    }
    if (event.type === "error") {
      const owner = found ?? current;
      if (owner !== undefined) owner.metrics.errors += 1;
      else pendingErrors.push(1);
    }
  }
  if (first !== undefined) first.metrics.errors += pendingErrors.length;
  for (const found of states.values()) {
    const turn = found.metrics;
    if (turn.startAt === 0) turn.startAt = found.firstAt;
    if (turn.parent !== undefined) continue;
    const modelEnd = turn.startAt + (turn.modelMs ?? 0);
    turn.wallMs = Math.max(found.lastAt, modelEnd) - turn.startAt;
  }
}

function callTiming(event: CallEvent, result: ResultEvent | undefined): CallTiming {
  const timing: CallTiming = {
    callId: event.call.id,
    name: event.call.name,
    turn: event.turn,
    eventId: event.id,
  };
  if (event.parent !== undefined) timing.parent = event.parent;
  if (event.action !== undefined) timing.action = event.action;
  if (result !== undefined) {
    timing.status = result.payload.status;
    timing.endAt = result.timestamp;
    const started = result.timestamp - Math.max(0, result.payload.durationMs);
    // A skipped call never ran: it takes no time, at the moment it was skipped.
    timing.startAt = result.payload.status === "skipped" ? result.timestamp : started;
  }
  return timing;
}

function totals(perTurn: TurnMetrics[], events: readonly ProtocolEvent[]): RunSummary {
  const sum = (pick: (turn: TurnMetrics) => number) =>
    perTurn.reduce((total, turn) => total + pick(turn), 0);
  const errorsOutside =
    perTurn.length === 0 ? events.filter((event) => event.type === "error").length : 0;
  const sources: TokenSource[] = perTurn.map((turn) => turn.tokenSource);
  return {
    turns: perTurn.length,
    toolCalls: sum((turn) => turn.toolCalls),
    errors: sum((turn) => turn.errors) + errorsOutside,
    ttftMs: perTurn[0]?.ttftMs ?? null,
    durationMs: sum((turn) => turn.wallMs),
    modelTimeMs: sum((turn) => turn.modelMs ?? 0),
    toolTimeMs: sum((turn) => turn.toolTimeMs),
    tokensIn: sum((turn) => turn.tokensIn),
    tokensOut: sum((turn) => turn.tokensOut),
    tokenSource: combineSources(sources),
    cost: runCost(perTurn),
    perTurn,
  };
}
