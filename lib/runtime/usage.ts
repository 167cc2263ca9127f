/**
 * A turn's token usage as the provider reported it: each count only when it gave one. Cache
 * counts are parts of `inputTokens` (the AI SDK's providers report the input whole, cache reads
 * and writes included).
 */
export interface ReportedUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** Of `cacheWriteTokens`, written to a 1-hour cache (Anthropic), priced apart (2 × input). */
  cacheWrite1hTokens?: number;
}

/** The usage shape `streamText`'s finish part carries (and the direct path copies). */
export interface SdkUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  inputTokenDetails?: {
    cacheReadTokens: number | undefined;
    cacheWriteTokens: number | undefined;
  };
  /** The provider's own usage object, as it sent it (`LanguageModelUsage.raw`). */
  raw?: unknown;
}

/** The counts of `usage` that are there. */
export function reported(usage: SdkUsage): ReportedUsage {
  const counts: ReportedUsage = {};
  if (usage.inputTokens !== undefined) counts.inputTokens = usage.inputTokens;
  if (usage.outputTokens !== undefined) counts.outputTokens = usage.outputTokens;
  const details = usage.inputTokenDetails;
  if (details?.cacheReadTokens !== undefined) counts.cacheReadTokens = details.cacheReadTokens;
  if (details?.cacheWriteTokens !== undefined) {
    counts.cacheWriteTokens = details.cacheWriteTokens;
    const longWrites = oneHourWrites(usage.raw);
    if (longWrites !== undefined) counts.cacheWrite1hTokens = longWrites;
  }
  return counts;
}

/**
 * Tokens an Anthropic answer wrote to a 1-hour cache: its usage's
 * `cache_creation.ephemeral_1h_input_tokens`. `@ai-sdk/anthropic` (v3) counts every cache
 * write in `cacheWriteTokens` (`cache_creation_input_tokens`, both lifetimes together) and
 * keeps the split only in the raw usage it hands on (`usage.raw`, also
 * `providerMetadata.anthropic.usage`). Other providers' raw usage has no such field: undefined.
 */
export function oneHourWrites(raw: unknown): number | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const creation = (raw as { cache_creation?: unknown }).cache_creation;
  if (typeof creation !== "object" || creation === null) return undefined;
  const tokens = (creation as { ephemeral_1h_input_tokens?: unknown }).ephemeral_1h_input_tokens;
  return typeof tokens === "number" && Number.isInteger(tokens) && tokens >= 0 ? tokens : undefined;
}
