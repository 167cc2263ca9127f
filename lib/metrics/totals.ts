import type { Price, PriceSource, SourcedPrice } from "../cost/types";
import type { RunCost, TokenSource, TurnCost, TurnMetrics } from "./types";

/** One source when all agree; `mixed` when they differ; `unknown` for none. */
export function combineSources(sources: readonly TokenSource[]): TokenSource {
  const [first, ...rest] = sources;
  if (first === undefined) return "unknown";
  return rest.every((source) => source === first) ? first : "mixed";
}

type PricedTokens = Pick<
  TurnMetrics,
  "tokensIn" | "tokensOut" | "cacheRead" | "cacheWrite" | "cacheWrite1h"
>;

/** One kind of token a turn is charged for: how many, and USD per million of them. */
export interface CostTerm {
  kind: "input" | "cacheRead" | "cacheWrite" | "cacheWrite1h" | "output";
  tokens: number;
  rate: number;
}

/**
 * A turn's cost as its terms, the sum `turnCost` adds up (a cost breakdown shows these, so it
 * always agrees with the total): uncached input, then the prompt cache's reads, 5-minute and
 * 1-hour writes when there are any, then output. Input the cache read or wrote costs its own
 * rate when the price has one, else the input rate (a 1-hour write: 2 × input, Anthropic's);
 * counts that do not add up (cache parts larger than the input) leave no negative remainder.
 */
export function costTerms(tokens: PricedTokens, price: Price): CostTerm[] {
  const { tokensIn, tokensOut, cacheRead, cacheWrite } = tokens;
  const longWrites = Math.min(tokens.cacheWrite1h, cacheWrite);
  const terms: CostTerm[] = [
    { kind: "input", tokens: Math.max(0, tokensIn - cacheRead - cacheWrite), rate: price.input },
  ];
  if (cacheRead > 0)
    terms.push({ kind: "cacheRead", tokens: cacheRead, rate: price.cacheRead ?? price.input });
  if (cacheWrite - longWrites > 0)
    terms.push({
      kind: "cacheWrite",
      tokens: cacheWrite - longWrites,
      rate: price.cacheWrite ?? price.input,
    });
  if (longWrites > 0)
    terms.push({
      kind: "cacheWrite1h",
      tokens: longWrites,
      rate: price.cacheWrite1h ?? 2 * price.input,
    });
  terms.push({ kind: "output", tokens: tokensOut, rate: price.output });
  return terms;
}

/** Tokens × USD per million tokens, by `costTerms`. */
export function turnCost(tokens: PricedTokens, price: SourcedPrice): TurnCost {
  const usd = costTerms(tokens, price).reduce((sum, term) => sum + term.tokens * term.rate, 0);
  return { usd: usd / 1_000_000, price };
}

/** The sum of the turns' costs, saying which models had no price; null when none had one. */
export function runCost(perTurn: readonly TurnMetrics[]): RunCost | null {
  const priced = perTurn.filter((turn) => turn.cost !== null);
  if (priced.length === 0) return null;
  const unpriced = new Set<string>();
  for (const turn of perTurn) {
    if (turn.cost === null) unpriced.add(modelName(turn));
  }
  const prices = new Set<PriceSource>();
  for (const turn of priced) if (turn.cost !== null) prices.add(turn.cost.price.source);
  return {
    usd: priced.reduce((total, turn) => total + (turn.cost?.usd ?? 0), 0),
    unpriced: [...unpriced],
    prices: [...prices],
    tokenSource: combineSources(priced.map((turn) => turn.tokenSource)),
  };
}

/** `provider/model`, or what of it is known. */
export function modelName(turn: Pick<TurnMetrics, "provider" | "model">): string {
  if (turn.provider === undefined) return turn.model ?? "unknown model";
  return `${turn.provider}/${turn.model ?? "?"}`;
}
