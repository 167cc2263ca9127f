import { priceFor } from "../cost/price-table";
import type { PriceTable } from "../cost/types";
import type { ActionSpec, MetricEvent, ProtocolEvent, ResultStatus } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { estimateMessagesTokens, estimateTokensOfLength } from "./estimate";
import { coveredMs } from "./intervals";
import { cacheParts } from "./token-counts";
import { combineSources, runCost, turnCost } from "./totals";
import type { CallTiming, RunSummary, TokenSource, TurnMetrics } from "./types";

export interface SummaryOptions {
  /** Prices to cost turns with; without it, costs are null. */
  prices?: PriceTable;
  /** The model of turns whose request is not in the transcript (its header's model). */
  model?: { provider: string; id: string };
}

/** What a turn without a metric is estimated from: its raw text's length and its request. */
export interface TurnTally {
  rawLength: number;
  request?: { provider: string; model: string; inputTokens: () => number };
  /**
   * The earliest and latest `t` of the turn's request and chunks (ms on its run's clock): how
   * long its text took to come when no metric says (a captured call without usage).
   */
  firstT?: number;
  lastT?: number;
}

interface TurnState {
  metrics: TurnMetrics;
  metric?: MetricEvent;
  firstAt: number;
  lastAt: number;
}

/** What a call's first event says, without its arguments. */
interface CallFacts {
  /** Position of the call's first event among all events (to tell it from repeats). */
  position: number;
  id: string;
  name: string;
  turn: number;
  eventId: string;
  parent?: string;
  action?: ActionSpec;
}

/** What a call's last result says, without its content. */
interface ResultFacts {
  status: ResultStatus;
  timestamp: number;
  durationMs: number;
}

/**
 * `summarize` as two passes over the events in order, so they need not be held: `first` for
 * every event (and `record` for chunks and requests), `endFirst()`, `second` for every event
 * again, then `result()`. Holds the turns and each call's and result's few facts, never the
 * events. Per-turn and whole-transcript metrics: turns are every turn number the transcript
 * mentions (metrics, events, chunks, requests). A metric gives a turn its tokens, timing and
 * token source; a turn without one (an import, a capture, a crash) gets estimated tokens from
 * its text. A metric written without `turn` (older transcripts) goes to the earliest turn
 * that has none: the loop writes one per turn, in turn order.
 */
export class SummaryPasses {
  private readonly states = new Map<number, TurnState>();
  private readonly tallies = new Map<number, TurnTally>();
  private readonly calls = new Map<string, CallFacts>();
  private readonly results = new Map<string, ResultFacts>();
  private readonly unturned: MetricEvent[] = [];
  private events = 0;
  private errorEvents = 0;
  // The second pass.
  private position = 0;
  private current: TurnState | undefined;
  private firstTurn: TurnState | undefined;
  private pendingErrors = 0;

  constructor(private readonly options: SummaryOptions = {}) {}

  /** A record of the first pass: events go to `first`, chunks and requests to the turn's text. */
  record(record: TranscriptRecord): void {
    if (record.kind === "event") {
      this.first(record.event);
      return;
    }
    const tally = this.tally(record.turn);
    if (Number.isFinite(record.t)) {
      tally.firstT = Math.min(tally.firstT ?? record.t, record.t);
      tally.lastT = Math.max(tally.lastT ?? record.t, record.t);
    }
    if (record.kind === "chunk") tally.rawLength += record.text.length;
    else {
      const tokens = estimateMessagesTokens(record.messages);
      tally.request = { provider: record.provider, model: record.model, inputTokens: () => tokens };
    }
  }

  /** A turn's text known up front (what a `RunLog` holds). */
  turnText(turn: number, tally: TurnTally): void {
    this.tallies.set(turn, tally);
    this.state(turn);
  }

  first(event: ProtocolEvent): void {
    const position = this.events++;
    const turn = this.eventTurn(event);
    if (event.type === "call" && !this.calls.has(event.call.id))
      this.calls.set(event.call.id, callFacts(event, position));
    if (event.type === "result")
      this.results.set(event.callId, {
        status: event.payload.status,
        timestamp: event.timestamp,
        durationMs: event.payload.durationMs,
      });
    if (event.type === "metric" && event.turn === undefined) this.unturned.push(event);
    if (event.type === "error") this.errorEvents += 1;
    if (turn === undefined) return;
    const found = this.state(turn);
    if (event.parent !== undefined) found.metrics.parent = event.parent;
    if (event.type === "metric") found.metric = event;
  }

  endFirst(): void {
    const byTurn = [...this.states.values()].sort((a, b) => a.metrics.turn - b.metrics.turn);
    const waiting = byTurn.filter((found) => found.metric === undefined);
    for (const [index, metric] of this.unturned.entries()) {
      const found = waiting[index];
      if (found === undefined) break;
      found.metric = metric;
      if (metric.parent !== undefined) found.metrics.parent = metric.parent;
    }
    for (const found of this.states.values())
      measure(found, this.tallies.get(found.metrics.turn), this.options);
    this.firstTurn = byTurn[0];
  }

  /**
   * Counts calls and errors per turn, times each call, and measures the wall time of top-level
   * turns: from a turn's start to the last event before the next top-level turn or the next
   * user message (a new run). Errors without a turn go to the turn in progress (or the first).
   */
  second(event: ProtocolEvent): void {
    const position = this.position++;
    const turn = this.eventTurn(event);
    const found = turn === undefined ? undefined : this.states.get(turn);
    if (event.parent === undefined && event.type === "user") this.current = undefined;
    const current = this.current;
    if (found !== undefined && found.metrics.parent === undefined && found !== current) {
      if (current === undefined || found.metrics.turn > current.metrics.turn) this.current = found;
    }
    if (this.current !== undefined && event.timestamp > 0) {
      if (this.current.firstAt === 0) this.current.firstAt = event.timestamp;
      this.current.lastAt = Math.max(this.current.lastAt, event.timestamp);
    }
    if (event.type === "call" && found !== undefined) {
      const call = this.calls.get(event.call.id);
      if (call?.position === position) {
        found.metrics.toolCalls += 1;
        found.metrics.calls.push(callTiming(call, this.results.get(call.id)));
      }
    }
    if (event.type === "error") {
      const owner = found ?? this.current;
      if (owner !== undefined) owner.metrics.errors += 1;
      else this.pendingErrors += 1;
    }
  }

  result(): RunSummary {
    if (this.firstTurn !== undefined) this.firstTurn.metrics.errors += this.pendingErrors;
    for (const found of this.states.values()) {
      const turn = found.metrics;
      if (turn.startAt === 0) turn.startAt = found.firstAt;
      if (turn.parent !== undefined) continue;
      const modelEnd = turn.startAt + (turn.modelMs ?? textMs(this.tallies.get(turn.turn)));
      turn.wallMs = Math.max(found.lastAt, modelEnd) - turn.startAt;
    }
    const perTurn = [...this.states.values()]
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
    return totals(perTurn, perTurn.length === 0 ? this.errorEvents : 0);
  }

  private state(turn: number): TurnState {
    let found = this.states.get(turn);
    if (found === undefined) {
      found = { metrics: emptyTurn(turn), firstAt: 0, lastAt: 0 };
      this.states.set(turn, found);
    }
    return found;
  }

  private tally(turn: number): TurnTally {
    let tally = this.tallies.get(turn);
    if (tally === undefined) {
      tally = { rawLength: 0 };
      this.tallies.set(turn, tally);
      this.state(turn);
    }
    return tally;
  }

  /** The turn an event belongs to: its own, or its call's (results, tool errors). */
  private eventTurn(event: ProtocolEvent): number | undefined {
    if ("turn" in event && event.turn !== undefined) return event.turn;
    if (event.type === "result") return this.calls.get(event.callId)?.turn;
    if (event.type === "error" && event.callId !== undefined)
      return this.calls.get(event.callId)?.turn;
    return undefined;
  }
}

/** How long a turn's text took to come, from its request to its last chunk (0 unknown). */
function textMs(tally: TurnTally | undefined): number {
  const { firstT, lastT } = tally ?? {};
  return firstT === undefined || lastT === undefined ? 0 : Math.max(0, lastT - firstT);
}

function callFacts(event: ProtocolEvent & { type: "call" }, position: number): CallFacts {
  const facts: CallFacts = {
    position,
    id: event.call.id,
    name: event.call.name,
    turn: event.turn,
    eventId: event.id,
  };
  if (event.parent !== undefined) facts.parent = event.parent;
  if (event.action !== undefined) facts.action = event.action;
  return facts;
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
    cacheRead: 0,
    cacheWrite: 0,
    cacheWrite1h: 0,
    tokenSource: "estimate",
    toolCalls: 0,
    errors: 0,
    toolTimeMs: 0,
    wallMs: 0,
    calls: [],
    cost: null,
  };
}

function measure(found: TurnState, tally: TurnTally | undefined, options: SummaryOptions): void {
  const turn = found.metrics;
  const request = tally?.request;
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
    // Cut to fit in the input: a metric stored before that was checked may say more.
    const { step } = metric;
    const cache = cacheParts(step.input, step.cacheRead, step.cacheWrite, step.cacheWrite1h);
    turn.cacheRead = cache.cacheRead ?? 0;
    turn.cacheWrite = cache.cacheWrite ?? 0;
    turn.cacheWrite1h = cache.cacheWrite1h ?? 0;
    turn.tokenSource = metric.tokenSource ?? "unknown";
    // None when no token came (a refused key, a provider stopped before answering).
    turn.ttftMs = metric.step.ttftMs ?? null;
    turn.modelMs = metric.step.durationMs;
    turn.startAt = metric.timestamp > 0 ? metric.timestamp - metric.step.durationMs : 0;
  } else {
    turn.tokensIn = request === undefined ? 0 : request.inputTokens();
    turn.tokensOut = estimateTokensOfLength(tally?.rawLength ?? 0);
    turn.tokenSource = "estimate";
  }
  if (options.prices !== undefined && provider !== undefined && model !== undefined) {
    const price = priceFor(options.prices, provider, model);
    if (price !== null) turn.cost = turnCost(turn, price);
  }
}

function callTiming(call: CallFacts, result: ResultFacts | undefined): CallTiming {
  const timing: CallTiming = {
    callId: call.id,
    name: call.name,
    turn: call.turn,
    eventId: call.eventId,
  };
  if (call.parent !== undefined) timing.parent = call.parent;
  if (call.action !== undefined) timing.action = call.action;
  if (result !== undefined) {
    timing.status = result.status;
    timing.endAt = result.timestamp;
    const started = result.timestamp - Math.max(0, result.durationMs);
    // A skipped call never ran: it takes no time, at the moment it was skipped.
    timing.startAt = result.status === "skipped" ? result.timestamp : started;
  }
  return timing;
}

/**
 * What Σ wallMs counts twice: top-level turns that ran at the same time (a turn whose model
 * call began before an earlier turn's model stream ended: calls an agent made in parallel,
 * captured) count the time they cover together once. Turns one after another never overlap
 * that way (a turn's model answers before its tools run and the next turn starts): 0 then, and
 * the run's wall time stays Σ wallMs. A turn without a measured model time stands alone.
 */
function parallelOverlap(perTurn: readonly TurnMetrics[]): number {
  const top = perTurn
    .filter((turn) => turn.parent === undefined)
    .sort((a, b) => a.startAt - b.startAt);
  let overlap = 0;
  let group: TurnMetrics[] = [];
  const close = () => {
    if (group.length < 2) return;
    const spans = group.map((turn) => ({ start: turn.startAt, end: turn.startAt + turn.wallMs }));
    overlap += group.reduce((sum, turn) => sum + turn.wallMs, 0) - coveredMs(spans);
  };
  let modelEnd = Number.NEGATIVE_INFINITY;
  for (const turn of top) {
    const measured = turn.modelMs !== null && turn.startAt > 0;
    const parallel = measured && turn.startAt < modelEnd;
    if (!parallel) {
      close();
      group = [];
      modelEnd = Number.NEGATIVE_INFINITY;
    }
    group.push(turn);
    if (measured) modelEnd = Math.max(modelEnd, turn.startAt + (turn.modelMs ?? 0));
  }
  close();
  return Math.max(0, overlap);
}

function totals(perTurn: TurnMetrics[], errorsOutside: number): RunSummary {
  const sum = (pick: (turn: TurnMetrics) => number) =>
    perTurn.reduce((total, turn) => total + pick(turn), 0);
  const sources: TokenSource[] = perTurn.map((turn) => turn.tokenSource);
  return {
    turns: perTurn.length,
    toolCalls: sum((turn) => turn.toolCalls),
    errors: sum((turn) => turn.errors) + errorsOutside,
    ttftMs: perTurn[0]?.ttftMs ?? null,
    durationMs: sum((turn) => turn.wallMs) - parallelOverlap(perTurn),
    modelTimeMs: sum((turn) => turn.modelMs ?? 0),
    toolTimeMs: sum((turn) => turn.toolTimeMs),
    tokensIn: sum((turn) => turn.tokensIn),
    tokensOut: sum((turn) => turn.tokensOut),
    cacheRead: sum((turn) => turn.cacheRead),
    cacheWrite: sum((turn) => turn.cacheWrite),
    cacheWrite1h: sum((turn) => turn.cacheWrite1h),
    tokenSource: combineSources(sources),
    cost: runCost(perTurn),
    perTurn,
  };
}
