export { formatUsd, roundUsd, USD_DECIMALS } from "./format";
export { MAX_PRICE_ENTRIES, type PricesResult, parsePrices, parsePricesJson } from "./parse-prices";
export { mergePrices, priceFor, priceKey, sourced } from "./price-table";
export { SHIPPED_PRICES, SHIPPED_PRICES_DATE } from "./shipped-prices";
export type { Price, PriceSource, PriceTable, SourcedPrice } from "./types";
