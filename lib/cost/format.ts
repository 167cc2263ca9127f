/** `$0.0066`, `$1.23`, `$0.00`, `<$0.0001`: a cost short enough for a chip. */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd) || usd < 0) return "–";
  if (usd === 0) return "$0.00";
  if (usd < 0.0001) return "<$0.0001";
  if (usd < 1) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}
