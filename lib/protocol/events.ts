/**
 * The one event vocabulary of Wirescope (docs/events.md). Every consumer switches over
 * `event.type` exhaustively; adding a type here must fail to compile until it is
 * handled everywhere (see `assertNever`).
 */

export type Dialect = "xml" | "delimiter" | "action" | "hermes";
export const DIALECTS: readonly Dialect[] = ["xml", "delimiter", "action", "hermes"];

/** UTF-16 offsets into the turn's raw text (all chunks of one model turn, concatenated). */
export interface Span {
  start: number;
  end: number;
}

interface EventBase {
  id: string;
  /** ms since epoch, from an injected clock (0 when none is given). */
  timestamp: number;
  /** Set on events of a nested sub-agent run: the id of the parent `call`. */
  parent?: string;
}

/** Events the parser produces carry the model turn and their place in its raw text. */
interface ParsedBase extends EventBase {
  turn: number;
  span: Span;
}

export interface UserEvent extends EventBase {
  type: "user";
  content: string;
}

/** Streams as pieces sharing one id; contents concatenate, spans join (docs/events.md#pieces). */
export interface ThinkEvent extends ParsedBase {
  type: "think";
  content: string;
}

export type ActionType = "tool" | "agent" | "relic" | "workflow" | "llm";
export type ActionMode = "sync" | "async" | "fire_and_forget";
export type OnError = "skip" | "fail" | "retry";

/** Execution options of an `action`-dialect call. Timeout is in seconds. */
export interface ActionSpec {
  type: ActionType;
  mode: ActionMode;
  outputKey?: string;
  dependsOn?: string[];
  timeout?: number;
  retry?: number;
  onError?: OnError;
}

export interface ToolCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface CallEvent extends ParsedBase {
  type: "call";
  call: ToolCall;
  action?: ActionSpec;
}

export interface ExecuteEvent extends ParsedBase {
  type: "execute";
}

export type ResultStatus = "success" | "failure" | "skipped";

export interface ResultPayload {
  tool: string;
  status: ResultStatus;
  content: unknown;
  /** One readable line: what happened ("Read 12 lines", "Timed out after 30 s"). */
  outcome: string;
  durationMs: number;
}

export interface ResultEvent extends EventBase {
  type: "result";
  callId: string;
  payload: ResultPayload;
  turn?: number;
}

/** Streams as pieces sharing one id, like `think`. */
export interface RespondEvent extends ParsedBase {
  type: "respond";
  content: string;
}

export interface EndEvent extends EventBase {
  type: "end";
  turn?: number;
  span?: Span;
}

export interface TokenStep {
  /** Every input token, cached ones included. */
  input: number;
  output: number;
  durationMs: number;
  /**
   * From the turn's start to its first token; absent when none came (a refused key, a provider
   * stopped before it answered), which showed as "ttft 0 ms".
   */
  ttftMs?: number;
  /** Of `input`, tokens read from the provider's prompt cache, when it reported them. */
  cacheRead?: number;
  /** Of `input`, tokens written to the provider's prompt cache, when it reported them. */
  cacheWrite?: number;
  /**
   * Of `cacheWrite`, tokens written to a 1-hour cache (Anthropic's `ttl: "1h"`, reported as
   * `cache_creation.ephemeral_1h_input_tokens`): they cost 2 × input, the 5-minute ones 1.25 ×.
   * Absent when the provider did not tell the two apart.
   */
  cacheWrite1h?: number;
}

/** Where a metric's token counts come from: the provider's usage, an estimate, or some of each. */
export type MetricTokenSource = "provider" | "estimate" | "mixed";

export interface MetricEvent extends EventBase {
  type: "metric";
  turn?: number;
  step: TokenStep;
  /** Absent in transcripts written before it was recorded. */
  tokenSource?: MetricTokenSource;
  total: { input: number; output: number; durationMs: number };
}

/** Codes the parsers emit for malformed model output (docs/dialects). */
export type ParserErrorCode =
  | "invalid_json"
  | "invalid_call"
  | "invalid_action"
  | "model_wrote_results"
  | "unclosed_block"
  | "block_too_large"
  | "call_without_execute"
  | "stray_text"
  | "duplicate_response";

/** Codes the runtime emits (tools, the loop, providers). */
export type RuntimeErrorCode =
  | "unknown_variable"
  | "dependency"
  | "max_turns"
  | "circuit_breaker"
  | "tool_failed"
  | "provider"
  | "internal"
  /** A record could not be stored (disk full, read-only data directory): the run stops. */
  | "storage_failed";

export type ErrorCode = ParserErrorCode | RuntimeErrorCode;

export interface ErrorEvent extends EventBase {
  type: "error";
  code: ErrorCode;
  message: string;
  turn?: number;
  span?: Span;
  tool?: string;
  callId?: string;
  /** The offending text, kept so nothing the model wrote is lost. */
  raw?: string;
}

/** `crash`: the server died mid-run; written when it starts again (docs/live-runs.md). */
export type InterruptReason = "user" | "timeout" | "disconnect" | "crash";
export const INTERRUPT_REASONS: readonly InterruptReason[] = [
  "user",
  "timeout",
  "disconnect",
  "crash",
];

export interface InterruptEvent extends EventBase {
  type: "interrupt";
  reason: InterruptReason;
}

export type ProtocolEvent =
  | UserEvent
  | ThinkEvent
  | CallEvent
  | ExecuteEvent
  | ResultEvent
  | RespondEvent
  | EndEvent
  | MetricEvent
  | ErrorEvent
  | InterruptEvent;

export type EventType = ProtocolEvent["type"];

export type EventOf<T extends EventType> = Extract<ProtocolEvent, { type: T }>;

export const EVENT_TYPES: readonly EventType[] = [
  "user",
  "think",
  "call",
  "execute",
  "result",
  "respond",
  "end",
  "metric",
  "error",
  "interrupt",
];

/** Conversation events: what is persisted and assembled into context. */
export const PERSISTED: Record<EventType, boolean> = {
  user: true,
  think: true,
  call: true,
  execute: false,
  result: true,
  respond: true,
  end: false,
  metric: false,
  error: false,
  interrupt: false,
};

/** The compile-time end of every exhaustive switch over `event.type`. */
export function assertNever(value: never, what = "value"): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
