import { SHIPPED_PRICES } from "./shipped-prices";
import type { Price, PriceSource, PriceTable, SourcedPrice } from "./types";

/** A dated snapshot id: `-2025-08-07` or `-20251001` at the end. */
const DATED_SUFFIX = /-(?:\d{4}-\d{2}-\d{2}|\d{8})$/;

/** The key of a model in a price table. */
export function priceKey(provider: string, model: string): string {
  return `${provider}/${model}`;
}

/** The key of a price for every model of a provider (`demo/*`: the demo model is free). */
export function anyModelKey(provider: string): string {
  return priceKey(provider, "*");
}

/**
 * The price of `provider`'s `model`: its own entry, else its undated name's (a dated snapshot
 * such as `claude-haiku-4-5-20251001` costs what its family name does), else the provider's
 * `provider/*` entry when the table has one. null: no price.
 */
export function priceFor(table: PriceTable, provider: string, model: string): SourcedPrice | null {
  const id = model.startsWith("models/") ? model.slice("models/".length) : model;
  const exact = table[priceKey(provider, id)];
  if (exact !== undefined) return exact;
  const undated = id.replace(DATED_SUFFIX, "");
  const family = undated === id ? undefined : table[priceKey(provider, undated)];
  return family ?? table[anyModelKey(provider)] ?? null;
}

/** A table of prices from one source. */
export function sourced(prices: Readonly<Record<string, Price>>, source: PriceSource): PriceTable {
  const table: Record<string, SourcedPrice> = {};
  for (const [key, price] of Object.entries(prices)) {
    table[key] = { ...price, source };
  }
  return table;
}

/** The shipped prices, then the server's (`WIRESCOPE_PRICES`), then the user's: later wins. */
export function mergePrices(
  env: Readonly<Record<string, Price>> = {},
  settings: Readonly<Record<string, Price>> = {},
): PriceTable {
  return {
    ...sourced(SHIPPED_PRICES, "shipped"),
    ...sourced(env, "env"),
    ...sourced(settings, "settings"),
  };
}
