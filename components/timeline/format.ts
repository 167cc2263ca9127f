import type { TokenStep } from "@/lib/protocol";

export { formatDuration } from "@/lib/metrics/duration";

/** `1,280` with the reader's grouping. */
export function formatCount(value: number): string {
  return value.toLocaleString("en-US");
}

/**
 * Output tokens per second of generation: the time to the first token is waiting, not
 * generating, so it is left out. Null when the step was too short to say.
 */
export function tokensPerSecond(step: TokenStep): number | null {
  const generating = step.durationMs - (step.ttftMs ?? 0);
  if (generating <= 0 || step.output <= 0) return null;
  return step.output / (generating / 1000);
}

/** How a value reads as text: strings as they are, anything else as indented JSON. */
export function contentText(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  return JSON.stringify(value, null, 2) ?? String(value);
}
