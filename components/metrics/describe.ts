import { formatCount } from "@/components/timeline/format";
import { formatUsd, type PriceSource } from "@/lib/cost";
import type { RunCost, TokenSource, TurnMetrics } from "@/lib/metrics";

/** Where token counts come from, in a sentence for a tooltip. */
export const TOKEN_SOURCE_TEXT: Record<TokenSource, string> = {
  provider: "Token counts are the provider's reported usage.",
  estimate:
    "Token counts are estimates (a quarter of the characters): the provider reported no usage — the demo model, a replay, an import, or a turn stopped early at the execute boundary.",
  mixed: "Some token counts are the provider's usage, the others are estimates.",
  unknown: "Recorded before Wirescope noted where token counts come from.",
};

/** A short mark after token counts: `≈` for estimates, `~` for a mix. */
export const TOKEN_SOURCE_MARK: Record<TokenSource, string> = {
  provider: "",
  estimate: "≈",
  mixed: "~",
  unknown: "?",
};

const PRICE_SOURCE_TEXT: Record<PriceSource, string> = {
  shipped: "the shipped price table",
  env: "WIRESCOPE_PRICES on the server",
  settings: "your prices in Settings",
};

/** The cost's tooltip: what it is, where prices and counts come from, what has no price. */
export function describeCost(cost: RunCost | null, shippedDate: string): string {
  if (cost === null)
    return "No price for this model: set one in Settings → Prices or WIRESCOPE_PRICES.";
  const sources = cost.prices
    .map((source) =>
      source === "shipped"
        ? `${PRICE_SOURCE_TEXT[source]} (${shippedDate})`
        : PRICE_SOURCE_TEXT[source],
    )
    .join(", ");
  const parts = [`${formatUsd(cost.usd)}: tokens × USD per million tokens from ${sources}.`];
  if (cost.unpriced.length > 0) parts.push(`Left out (no price): ${cost.unpriced.join(", ")}.`);
  parts.push(TOKEN_SOURCE_TEXT[cost.tokenSource]);
  return parts.join(" ");
}

type CacheCounts = Pick<TurnMetrics, "cacheRead" | "cacheWrite">;

/** How many input tokens the prompt cache served or stored, for a tooltip; "" for none. */
export function describeCache({ cacheRead, cacheWrite }: CacheCounts): string {
  if (cacheRead === 0 && cacheWrite === 0) return "";
  const parts = [`${formatCount(cacheRead)} read from the prompt cache`];
  if (cacheWrite > 0) parts.push(`${formatCount(cacheWrite)} written to it`);
  return `Of the input: ${parts.join(", ")}.`;
}

/** A turn's cost as its sum: each kind of token × its USD per million. */
export function describeTurnCost(turn: TurnMetrics): string {
  const { cost } = turn;
  if (cost === null) return "No price for this model";
  const { price } = cost;
  const uncached = Math.max(0, turn.tokensIn - turn.cacheRead - turn.cacheWrite);
  const terms = [`${formatCount(uncached)} in × $${price.input}`];
  if (turn.cacheRead > 0)
    terms.push(`${formatCount(turn.cacheRead)} cache read × $${price.cacheRead ?? price.input}`);
  if (turn.cacheWrite > 0)
    terms.push(`${formatCount(turn.cacheWrite)} cache write × $${price.cacheWrite ?? price.input}`);
  terms.push(`${formatCount(turn.tokensOut)} out × $${price.output}`);
  return `${terms.join(" + ")} per million (${price.source})`;
}
