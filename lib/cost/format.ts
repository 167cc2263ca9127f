/**
 * The precision a cost is given to: 1e-10 USD. Prices are USD per million tokens with at most
 * four decimals (`0.0375`), so one token costs a multiple of 1e-10 USD and any sum of them is
 * one too; the rest is floating point's (nine turns at $0.006 added up to 0.05399999999999999).
 */
export const USD_DECIMALS = 10;

/** `usd` to the price table's precision (`USD_DECIMALS`): what an export or the API gives. */
export function roundUsd(usd: number): number {
  if (!Number.isFinite(usd)) return usd;
  return Number(usd.toFixed(USD_DECIMALS));
}

/** `$0.0066`, `$1.23`, `$0.00`, `<$0.0001`: a cost short enough for a chip. */
export function formatUsd(raw: number): string {
  if (!Number.isFinite(raw) || raw < 0) return "–";
  const usd = roundUsd(raw);
  if (usd === 0) return "$0.00";
  if (usd < 0.0001) return "<$0.0001";
  if (usd < 1) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}
