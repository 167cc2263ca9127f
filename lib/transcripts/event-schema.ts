/**
 * zod schemas for the event vocabulary (docs/events.md), used only where events cross a trust
 * boundary: imported transcript files. `events.ts` stays the source of truth; the checks at the
 * bottom make a new field or event type fail to compile until it is described here.
 */
import { z } from "zod";
import { MAX_TOKEN_COUNT } from "../metrics/token-counts";
import {
  type ActionSpec,
  type ErrorCode,
  EVENT_TYPES,
  type EventOf,
  type EventType,
  INTERRUPT_REASONS,
  type ProtocolEvent,
  type ResultPayload,
  type Span,
} from "../protocol/events";

/** Every error code once; a `Record` so a new code fails to compile until it is listed. */
const ERROR_CODES: Record<ErrorCode, true> = {
  invalid_json: true,
  invalid_call: true,
  invalid_action: true,
  model_wrote_results: true,
  unclosed_block: true,
  block_too_large: true,
  call_without_execute: true,
  stray_text: true,
  duplicate_response: true,
  unknown_variable: true,
  dependency: true,
  max_turns: true,
  circuit_breaker: true,
  tool_failed: true,
  provider: true,
  internal: true,
  storage_failed: true,
};

const enumOf = <T extends string>(values: readonly T[]) => z.enum(values as [T, ...T[]]);

const count = z.number().int().nonnegative();
const span = z.strictObject({ start: count, end: count }) satisfies z.ZodType<Span>;
const base = {
  id: z.string().min(1).max(1000),
  timestamp: z.number(),
  parent: z.string().optional(),
};
const parsed = { ...base, turn: count, span };

const user = z.strictObject({ type: z.literal("user"), ...base, content: z.string() });
const think = z.strictObject({ type: z.literal("think"), ...parsed, content: z.string() });
const respond = z.strictObject({ type: z.literal("respond"), ...parsed, content: z.string() });
const execute = z.strictObject({ type: z.literal("execute"), ...parsed });

const action = z.strictObject({
  type: enumOf(["tool", "agent", "relic", "workflow", "llm"] as const),
  mode: enumOf(["sync", "async", "fire_and_forget"] as const),
  outputKey: z.string().optional(),
  dependsOn: z.array(z.string()).optional(),
  timeout: z.number().optional(),
  retry: z.number().optional(),
  onError: enumOf(["skip", "fail", "retry"] as const).optional(),
}) satisfies z.ZodType<ActionSpec>;

const call = z.strictObject({
  type: z.literal("call"),
  ...parsed,
  call: z.strictObject({
    id: z.string(),
    name: z.string(),
    args: z.record(z.string(), z.unknown()),
  }),
  action: action.optional(),
});

const payload = z.strictObject({
  tool: z.string(),
  status: enumOf(["success", "failure", "skipped"] as const),
  content: z.unknown(),
  outcome: z.string(),
  durationMs: z.number(),
}) satisfies z.ZodType<ResultPayload>;

const result = z.strictObject({
  type: z.literal("result"),
  ...base,
  callId: z.string(),
  payload,
  turn: count.optional(),
});

const end = z.strictObject({
  type: z.literal("end"),
  ...base,
  turn: count.optional(),
  span: span.optional(),
});

/** One turn's tokens: whole numbers up to `MAX_TOKEN_COUNT` (a file is not believed past it). */
const tokenCount = count.max(MAX_TOKEN_COUNT);
const metric = z.strictObject({
  type: z.literal("metric"),
  ...base,
  turn: count.optional(),
  step: z
    .strictObject({
      input: tokenCount,
      output: tokenCount,
      durationMs: z.number(),
      ttftMs: z.number().optional(),
      cacheRead: tokenCount.optional(),
      cacheWrite: tokenCount.optional(),
      // Of cacheWrite, the 1-hour cache's (summaries cut it to fit, as the others to input).
      cacheWrite1h: tokenCount.optional(),
    })
    .refine((step) => (step.cacheRead ?? 0) + (step.cacheWrite ?? 0) <= step.input, {
      error: "cacheRead and cacheWrite are parts of input: together at most input",
      path: ["cacheRead"],
    })
    .refine((step) => (step.cacheWrite1h ?? 0) <= (step.cacheWrite ?? 0), {
      error: "cacheWrite1h is part of cacheWrite: at most cacheWrite",
      path: ["cacheWrite1h"],
    }),
  total: z.strictObject({ input: count, output: count, durationMs: z.number() }),
  tokenSource: enumOf(["provider", "estimate", "mixed"] as const).optional(),
});

const error = z.strictObject({
  type: z.literal("error"),
  ...base,
  code: enumOf(Object.keys(ERROR_CODES) as ErrorCode[]),
  message: z.string(),
  turn: count.optional(),
  span: span.optional(),
  tool: z.string().optional(),
  callId: z.string().optional(),
  raw: z.string().optional(),
});

const interrupt = z.strictObject({
  type: z.literal("interrupt"),
  ...base,
  reason: enumOf(INTERRUPT_REASONS),
});

/** One schema per event type: the `satisfies` fails to compile when a type has none. */
const EVENT_SCHEMAS = {
  user,
  think,
  call,
  execute,
  result,
  respond,
  end,
  metric,
  error,
  interrupt,
} satisfies { [T in EventType]: z.ZodType<EventOf<T>> };

const typeList = EVENT_TYPES.map((type) => JSON.stringify(type)).join("|");

/** Any event (docs/events.md), checked field by field; unknown fields are refused (strict objects). */
export const eventSchema = z.discriminatedUnion(
  "type",
  [user, think, call, execute, result, respond, end, metric, error, interrupt],
  { error: () => `Invalid option: expected one of ${typeList}` },
) satisfies z.ZodType<ProtocolEvent>;

/* Compile-time checks that each schema describes exactly its TypeScript type: adding a field
 * to an event in `events.ts` fails here until the schema has it too. */
type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Described<T extends EventType> = Same<z.output<(typeof EVENT_SCHEMAS)[T]>, EventOf<T>>;
const exact: { [T in EventType]: Described<T> } = {
  user: true,
  think: true,
  call: true,
  execute: true,
  result: true,
  respond: true,
  end: true,
  metric: true,
  error: true,
  interrupt: true,
};
void exact;
