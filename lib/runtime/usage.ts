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
}

/** The usage shape `streamText`'s finish part carries (and the direct path copies). */
export interface SdkUsage {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  inputTokenDetails?: {
    cacheReadTokens: number | undefined;
    cacheWriteTokens: number | undefined;
  };
}

/** The counts of `usage` that are there. */
export function reported(usage: SdkUsage): ReportedUsage {
  const counts: ReportedUsage = {};
  if (usage.inputTokens !== undefined) counts.inputTokens = usage.inputTokens;
  if (usage.outputTokens !== undefined) counts.outputTokens = usage.outputTokens;
  const details = usage.inputTokenDetails;
  if (details?.cacheReadTokens !== undefined) counts.cacheReadTokens = details.cacheReadTokens;
  if (details?.cacheWriteTokens !== undefined) counts.cacheWriteTokens = details.cacheWriteTokens;
  return counts;
}
