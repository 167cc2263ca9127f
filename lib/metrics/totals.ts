import type { PriceSource, SourcedPrice } from "../cost/types";
import type { RunCost, TokenSource, TurnCost, TurnMetrics } from "./types";

/** One source when all agree; `mixed` when they differ; `unknown` for none. */
export function combineSources(sources: readonly TokenSource[]): TokenSource {
  const [first, ...rest] = sources;
  if (first === undefined) return "unknown";
  return rest.every((source) => source === first) ? first : "mixed";
}

/**
 * Tokens × USD per million tokens. Input the prompt cache read or wrote costs its own rate when
 * the price has one (else the input rate); counts that do not add up (cache parts larger than
 * the input) leave no negative remainder.
 */
export function turnCost(
  tokens: Pick<TurnMetrics, "tokensIn" | "tokensOut" | "cacheRead" | "cacheWrite">,
  price: SourcedPrice,
): TurnCost {
  const { tokensIn, tokensOut, cacheRead, cacheWrite } = tokens;
  const uncached = Math.max(0, tokensIn - cacheRead - cacheWrite);
  const usd =
    uncached * price.input +
    cacheRead * (price.cacheRead ?? price.input) +
    cacheWrite * (price.cacheWrite ?? price.input) +
    tokensOut * price.output;
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
