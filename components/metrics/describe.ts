import { formatCount } from "@/components/timeline/format";
import { formatUsd, type PriceSource } from "@/lib/cost";
import {
  type CostTerm,
  costTerms,
  type RunCost,
  type TokenSource,
  type TurnMetrics,
} from "@/lib/metrics";

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

type CacheCounts = Pick<TurnMetrics, "cacheRead" | "cacheWrite" | "cacheWrite1h">;

/** How many input tokens the prompt cache served or stored, for a tooltip; "" for none. */
export function describeCache({ cacheRead, cacheWrite, cacheWrite1h }: CacheCounts): string {
  if (cacheRead === 0 && cacheWrite === 0) return "";
  const parts = [`${formatCount(cacheRead)} read from the prompt cache`];
  if (cacheWrite > 0)
    parts.push(
      cacheWrite1h > 0
        ? `${formatCount(cacheWrite)} written to it (${formatCount(cacheWrite1h)} for an hour)`
        : `${formatCount(cacheWrite)} written to it`,
    );
  return `Of the input: ${parts.join(", ")}.`;
}

/** How each kind of token is named in a cost's sum. */
const TERM_NAME: Record<CostTerm["kind"], string> = {
  input: "in",
  cacheRead: "cache read",
  cacheWrite: "cache write",
  cacheWrite1h: "1-hour cache write",
  output: "out",
};

/** A turn's cost as its sum: each kind of token × its USD per million. */
export function describeTurnCost(turn: TurnMetrics): string {
  const { cost } = turn;
  if (cost === null) return "No price for this model";
  const { price } = cost;
  // The terms turnCost adds up, so the sum shown is the cost shown.
  const terms = costTerms(turn, price).map(
    (term) => `${formatCount(term.tokens)} ${TERM_NAME[term.kind]} × $${term.rate}`,
  );
  return `${terms.join(" + ")} per million (${price.source})`;
}
