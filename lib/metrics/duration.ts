/**
 * A duration as the run summary header, the cards and the Markdown export all say it:
 * `840 ms`, `2.35 s`, `12.4 s`, `3 min 5 s` (short enough for a chip). Not a number: `–`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}
