import { estimateTokens } from "../metrics/estimate";
import { cacheParts } from "../metrics/token-counts";
import type { MetricTokenSource, ProtocolEvent, TokenStep } from "../protocol/events";
import type { ReportedUsage } from "./usage";

export { estimateTokens };

/**
 * Providers whose reported usage is itself an estimate: the demo model and replays count a
 * quarter of the characters, so their metrics say `estimate`, not `provider`.
 */
export const ESTIMATING_PROVIDERS: ReadonlySet<string> = new Set(["demo", "replay"]);

/** Where a turn's counts come from: reported input and output by a real provider, or not. */
export function tokenSourceOf(
  provider: string,
  usage: { inputTokens?: number; outputTokens?: number },
): MetricTokenSource {
  if (ESTIMATING_PROVIDERS.has(provider)) return "estimate";
  const input = usage.inputTokens !== undefined;
  const output = usage.outputTokens !== undefined;
  if (input && output) return "provider";
  return input || output ? "mixed" : "estimate";
}

/**
 * The prompt-cache counts a provider reported, as a metric step carries them: only those it
 * gave, and only with a reported input (they are parts of it; an estimated input has none).
 */
export function cacheCounts(
  usage: ReportedUsage,
): Pick<TokenStep, "cacheRead" | "cacheWrite" | "cacheWrite1h"> {
  if (usage.inputTokens === undefined) return {};
  return cacheParts(
    usage.inputTokens,
    usage.cacheReadTokens,
    usage.cacheWriteTokens,
    usage.cacheWrite1hTokens,
  );
}

/** Per-turn and running totals, emitted as one `metric` event per model turn. */
export class MetricTracker {
  turns = 0;
  private input = 0;
  private output = 0;
  private durationMs = 0;

  add(
    emit: (event: ProtocolEvent) => void,
    newId: () => string,
    timestamp: number,
    step: TokenStep,
    measured: { turn: number; tokenSource: MetricTokenSource },
  ): void {
    this.turns += 1;
    this.input += step.input;
    this.output += step.output;
    this.durationMs += step.durationMs;
    const total = { input: this.input, output: this.output, durationMs: this.durationMs };
    const { turn, tokenSource } = measured;
    emit({ type: "metric", id: newId(), timestamp, turn, step, total, tokenSource });
  }
}
