import type { PriceSource, SourcedPrice } from "../cost/types";
import type { ActionSpec, ResultStatus } from "../protocol/events";

/**
 * Where a token count comes from: the provider's reported usage, Wirescope's estimate (a
 * quarter of the characters), both (a run whose turns differ, or a turn whose input was
 * reported and output estimated), or unknown (a transcript written before the metric event
 * said so).
 */
export type TokenSource = "provider" | "estimate" | "mixed" | "unknown";

/** One tool call's time: from its start (result time − its duration) to its result. */
export interface CallTiming {
  callId: string;
  name: string;
  turn: number;
  /** The call event's id (for linking to its card and raw span). */
  eventId: string;
  parent?: string;
  action?: ActionSpec;
  /** ms since the epoch; undefined while the call has no result yet. */
  startAt?: number;
  endAt?: number;
  status?: ResultStatus;
}

/** What one model turn cost, with the price it used. */
export interface TurnCost {
  usd: number;
  price: SourcedPrice;
}

export interface TurnMetrics {
  turn: number;
  /** The `call` id that started the sub-agent run this turn belongs to. */
  parent?: string;
  provider?: string;
  model?: string;
  /** False when the transcript has no metric for the turn: counts are estimated from its text. */
  measured: boolean;
  /** ms since the epoch the model turn started (0 when the transcript has no clock). */
  startAt: number;
  /** Time to first token and the model turn's duration; null when not measured. */
  ttftMs: number | null;
  modelMs: number | null;
  tokensIn: number;
  tokensOut: number;
  /** Of `tokensIn`, read from / written to the provider's prompt cache (0 when not reported). */
  cacheRead: number;
  cacheWrite: number;
  /** Of `cacheWrite`, written to a 1-hour cache (Anthropic; 0 when not reported). */
  cacheWrite1h: number;
  tokenSource: TokenSource;
  toolCalls: number;
  errors: number;
  /** Time covered by this turn's tool calls (parallel calls count once). */
  toolTimeMs: number;
  /**
   * Wall time of a top-level turn: from its start to the next top-level turn's start in the
   * same run, or to the run's last event. 0 for sub-agent turns (their time is inside it).
   */
  wallMs: number;
  calls: CallTiming[];
  /** null: no price for this model. */
  cost: TurnCost | null;
  /** The metric event's id, when there is one (its card). */
  metricId?: string;
}

export interface RunCost {
  /** The sum over turns that have a price. */
  usd: number;
  /** Models with no price: the sum leaves their turns out. */
  unpriced: string[];
  /** Where the prices used came from. */
  prices: PriceSource[];
  /** Where the token counts priced came from. */
  tokenSource: TokenSource;
}

/**
 * A transcript's numbers. Every count is the sum of `perTurn` (turns, tool calls, errors,
 * tokens, tool time, wall duration, cost): errors outside any turn go to the nearest turn.
 */
export interface RunSummary {
  turns: number;
  toolCalls: number;
  errors: number;
  /** The first turn's time to first token; null when not measured. */
  ttftMs: number | null;
  durationMs: number;
  modelTimeMs: number;
  toolTimeMs: number;
  tokensIn: number;
  tokensOut: number;
  /** Of `tokensIn`, read from / written to the provider's prompt cache (0 when not reported). */
  cacheRead: number;
  cacheWrite: number;
  /** Of `cacheWrite`, written to a 1-hour cache (0 when not reported). */
  cacheWrite1h: number;
  tokenSource: TokenSource;
  /** null when no turn has a price. */
  cost: RunCost | null;
  perTurn: TurnMetrics[];
}
