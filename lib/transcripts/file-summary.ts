import { formatUsd, roundUsd } from "../cost/format";
import { formatDuration } from "../metrics/duration";
import type { RunSummary, TokenSource } from "../metrics/types";

/**
 * The run summary a transcript file's header carries (`docs/transcript-file.md`): for readers
 * of the file. Import checks its shape and then ignores it: the numbers are recomputed from
 * the records, so an edited summary changes nothing.
 */
export interface FileSummary {
  turns: number;
  toolCalls: number;
  errors: number;
  durationMs: number;
  tokensIn: number;
  tokensOut: number;
  tokenSource: TokenSource;
  /** Of `tokensIn`, what the provider's prompt cache read / wrote; only when it reported some. */
  cacheRead?: number;
  cacheWrite?: number;
  /** USD of the priced turns, to 1e-10 USD (`roundUsd`); null when no turn had a price. */
  costUsd: number | null;
  /** Models left out of `costUsd` for want of a price. */
  unpriced?: string[];
}

export function fileSummaryOf(summary: RunSummary): FileSummary {
  const file: FileSummary = {
    turns: summary.turns,
    toolCalls: summary.toolCalls,
    errors: summary.errors,
    durationMs: Math.round(summary.durationMs),
    tokensIn: summary.tokensIn,
    tokensOut: summary.tokensOut,
    tokenSource: summary.tokenSource,
    costUsd: summary.cost === null ? null : roundUsd(summary.cost.usd),
  };
  if (summary.cacheRead > 0 || summary.cacheWrite > 0) {
    file.cacheRead = summary.cacheRead;
    file.cacheWrite = summary.cacheWrite;
  }
  if (summary.cost !== null && summary.cost.unpriced.length > 0) {
    file.unpriced = [...summary.cost.unpriced];
  }
  return file;
}

const ms = (value: number | null) => (value === null ? "–" : `${Math.round(value)}`);
const count = (value: number) => value.toLocaleString("en-US");

/** `1 turn`, `3 turns`: a count and its noun, singular for one. */
const counted = (value: number, noun: string) => `${count(value)} ${noun}${value === 1 ? "" : "s"}`;

/** ` (N cached)` after the input count, as the page words it; "" when nothing was cached. */
const cached = (summary: RunSummary) =>
  summary.cacheRead > 0 || summary.cacheWrite > 0 ? ` (${count(summary.cacheRead)} cached)` : "";

/** One line for the top of a Markdown export, worded as the run summary header. */
export function summaryLine(summary: RunSummary): string {
  const cost =
    summary.cost === null
      ? "no price"
      : `${formatUsd(summary.cost.usd)}${summary.cost.unpriced.length > 0 ? ` (no price: ${summary.cost.unpriced.join(", ")})` : ""}`;
  return [
    `**Summary** ${counted(summary.turns, "turn")}`,
    counted(summary.toolCalls, "call"),
    counted(summary.errors, "error"),
    `wall ${formatDuration(summary.durationMs)}`,
    `tokens ${count(summary.tokensIn)}${cached(summary)} → ${count(summary.tokensOut)} (${summary.tokenSource})`,
    `cost ${cost}`,
  ].join(" · ");
}

/** The per-turn table that ends a Markdown export; its totals are the summary line's. */
export function perTurnMarkdown(summary: RunSummary): string {
  const rows = summary.perTurn.map((turn) =>
    [
      `${turn.turn}${turn.parent === undefined ? "" : " ↳"}`,
      turn.model === undefined ? "–" : `\`${turn.model.replace(/`/g, "'")}\``,
      ms(turn.ttftMs),
      ms(turn.modelMs),
      count(turn.tokensIn),
      count(turn.tokensOut),
      turn.tokenSource,
      `${turn.toolCalls}`,
      `${turn.errors}`,
      ms(turn.toolTimeMs),
      turn.cost === null ? "no price" : formatUsd(turn.cost.usd),
    ].join(" | "),
  );
  const total = [
    "**Σ**",
    "",
    ms(summary.ttftMs),
    ms(summary.modelTimeMs),
    count(summary.tokensIn),
    count(summary.tokensOut),
    summary.tokenSource,
    `${summary.toolCalls}`,
    `${summary.errors}`,
    ms(summary.toolTimeMs),
    summary.cost === null ? "no price" : formatUsd(summary.cost.usd),
  ].join(" | ");
  return [
    "## Metrics",
    [
      "| turn | model | ttft ms | model ms | tokens in | tokens out | counts | calls | errors | tools ms | cost |",
      "| ---: | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |",
      ...[...rows, total].map((row) => `| ${row} |`),
    ].join("\n"),
  ].join("\n\n");
}
