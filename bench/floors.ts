import type { MiddlewareRow } from "./middleware-bench";
import type { LinearityRow, ThroughputRow } from "./parser-bench";
import { fixed } from "./table";

export interface Floor {
  text: string;
  pass: boolean;
}

/** The floors from the performance issue, checked against the figures (never asserted). */
export function floors(
  throughput: readonly ThroughputRow[],
  linearity: readonly LinearityRow[],
  middleware: readonly MiddlewareRow[],
): Floor[] {
  const out: Floor[] = [];
  const speed = (chunk: number) =>
    throughput.find((row) => row.dialect === "xml" && row.chunk === chunk)?.mbPerSecond ?? 0;
  out.push(atLeast(`xml at 64-char chunks ≥ 40 MB/s`, speed(64), 40, "MB/s"));
  out.push(atLeast(`xml at 1-char chunks ≥ 5 MB/s`, speed(1), 5, "MB/s"));
  for (const row of linearity) {
    out.push({
      text: `${row.dialect} 2 MB / 1 MB time ratio ≤ 2.5 (${row.chunk}-char chunks): ${fixed(row.ratio, 2)}`,
      pass: row.ratio <= 2.5,
    });
  }
  const chunks = [...new Set(middleware.map((row) => row.chunk))];
  for (const chunk of chunks) {
    const rate = (variant: MiddlewareRow["variant"]) =>
      middleware.find((row) => row.chunk === chunk && row.variant === variant)?.mbPerSecond ?? 0;
    const sdk = rate("ai-sdk extractReasoningMiddleware");
    const ours = rate("xml parserStream");
    out.push({
      text: `xml parserStream ≥ AI SDK middleware at ${chunk}-char chunks: ${fixed(ours)} vs ${fixed(sdk)} MB/s (feed loop ${fixed(rate("xml feed loop"))})`,
      pass: ours >= sdk,
    });
  }
  return out;
}

function atLeast(text: string, value: number, floor: number, unit: string): Floor {
  return { text: `${text}: ${fixed(value)} ${unit}`, pass: value >= floor };
}
