/**
 * Attribute names of the OpenTelemetry GenAI semantic conventions (development status,
 * registry as of semconv 1.37+: `gen_ai.provider.name` replaced `gen_ai.system`, which is
 * still written for older backends). Kept here as strings rather than imported from
 * `@opentelemetry/semantic-conventions/incubating`, which its authors advise against
 * depending on because incubating names may change between releases.
 */
export const GEN_AI = {
  operation: "gen_ai.operation.name",
  provider: "gen_ai.provider.name",
  system: "gen_ai.system",
  requestModel: "gen_ai.request.model",
  requestTemperature: "gen_ai.request.temperature",
  requestTopP: "gen_ai.request.top_p",
  requestMaxTokens: "gen_ai.request.max_tokens",
  conversationId: "gen_ai.conversation.id",
  agentName: "gen_ai.agent.name",
  agentId: "gen_ai.agent.id",
  inputTokens: "gen_ai.usage.input_tokens",
  outputTokens: "gen_ai.usage.output_tokens",
  /** Parts of `input_tokens` the provider's prompt cache served / stored (when it said). */
  cacheReadTokens: "gen_ai.usage.cache_read.input_tokens",
  cacheWriteTokens: "gen_ai.usage.cache_creation.input_tokens",
  outputType: "gen_ai.output.type",
  toolName: "gen_ai.tool.name",
  toolCallId: "gen_ai.tool.call.id",
  toolType: "gen_ai.tool.type",
  /** Opt-in content (behind the content switch only). */
  toolArguments: "gen_ai.tool.call.arguments",
  toolResult: "gen_ai.tool.call.result",
  inputMessages: "gen_ai.input.messages",
  outputMessages: "gen_ai.output.messages",
  systemInstructions: "gen_ai.system_instructions",
} as const;

export const ERROR_TYPE = "error.type";

/** What the conventions do not name, under Wirescope's own namespace. */
export const WIRESCOPE = {
  transcriptId: "wirescope.transcript.id",
  runId: "wirescope.run.id",
  dialect: "wirescope.dialect",
  source: "wirescope.source",
  turn: "wirescope.turn",
  turns: "wirescope.turns",
  ttftMs: "wirescope.ttft_ms",
  wireLength: "wirescope.wire.length",
  /** The turn's raw model text (behind the content switch only). */
  wire: "wirescope.wire.text",
  toolStatus: "wirescope.tool.status",
  toolOutcome: "wirescope.tool.outcome",
  actionType: "wirescope.action.type",
  actionMode: "wirescope.action.mode",
  interruptReason: "wirescope.interrupt.reason",
  errorCode: "wirescope.error.code",
} as const;

/** Span event names. `exception` is OpenTelemetry's own name for a recorded error. */
export const SPAN_EVENT = {
  error: "exception",
  interrupt: "wirescope.interrupt",
} as const;

/** Wirescope provider ids → `gen_ai.provider.name` well-known values where one exists. */
const PROVIDER_NAMES: Record<string, string> = {
  google: "gcp.gemini",
};

export function providerName(provider: string): string {
  return PROVIDER_NAMES[provider] ?? provider;
}

/** The agent name of a top-level run (a sub-agent's is the name of the call that started it). */
export const ROOT_AGENT = "wirescope";
