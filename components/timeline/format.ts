import type { TokenStep } from "@/lib/protocol";

/** `155 ms`, `1.2 s`, `2 min 5 s`: short enough for a chip. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "–";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms - minutes * 60_000) / 1000)} s`;
}

/** `1,280` with the reader's grouping. */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/**
 * Output tokens per second of generation: the time to the first token is waiting, not
 * generating, so it is left out. Null when the step was too short to say.
 */
export function tokensPerSecond(step: TokenStep): number | null {
  const generating = step.durationMs - step.ttftMs;
  if (generating <= 0 || step.output <= 0) return null;
  return step.output / (generating / 1000);
}

/** How a value reads as text: strings as they are, anything else as indented JSON. */
export function contentText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return JSON.stringify(value, null, 2) ?? String(value);
}
