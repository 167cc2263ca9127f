import { formatCount, formatDuration } from "@/components/timeline/format";
import { formatUsd } from "@/lib/cost";
import { modelName, type RunSummary } from "@/lib/metrics";
import { usePlayground } from "@/state/playground-store";
import { describeCache, describeCost, describeTurnCost, TOKEN_SOURCE_TEXT } from "./describe";

const CELL = "whitespace-nowrap px-2 py-0.5 text-right tabular-nums";
const HEAD = "whitespace-nowrap px-2 py-1 text-right font-normal text-fg-subtle";

/**
 * Each model turn's figures, and their sums (the header's figures) in the last row. A turn
 * of a sub-agent is marked with the call that started it. A click on a turn selects its card.
 * A `cached` column (input the provider's prompt cache served) shows when any turn has one.
 */
export function PerTurnTable({
  summary,
  shippedDate,
}: {
  summary: RunSummary;
  shippedDate: string;
}) {
  const ms = (value: number | null) => (value === null ? "–" : formatDuration(value));
  const cached = summary.cacheRead > 0 || summary.cacheWrite > 0;
  return (
    // The outer cells are padded as the summary row above (px-3), so the first column and the
    // last line up with its first figure and its buttons.
    <table
      className="w-full min-w-[640px] font-mono text-[11px] text-fg-muted [&_tr>*:first-child]:pl-3 [&_tr>*:last-child]:pr-3"
      data-testid="per-turn"
    >
      <caption className="sr-only">Per-turn metrics; the last row is the run's total</caption>
      <thead>
        <tr className="border-b border-border">
          <th scope="col" className={`${HEAD} text-left`}>
            turn
          </th>
          <th scope="col" className={`${HEAD} text-left`}>
            model
          </th>
          <th scope="col" className={HEAD} title="Time to first token">
            ttft
          </th>
          <th scope="col" className={HEAD} title="Model time: the turn's stream">
            model time
          </th>
          <th
            scope="col"
            className={HEAD}
            title="Wall time: from the turn's start to the next turn"
          >
            wall
          </th>
          <th scope="col" className={HEAD}>
            in
          </th>
          {cached ? (
            <th
              scope="col"
              className={HEAD}
              title="Input tokens read from the provider's prompt cache (part of in)"
            >
              cached
            </th>
          ) : null}
          <th scope="col" className={HEAD}>
            out
          </th>
          <th scope="col" className={`${HEAD} text-left`}>
            counts
          </th>
          <th scope="col" className={HEAD}>
            calls
          </th>
          <th scope="col" className={HEAD}>
            errors
          </th>
          <th
            scope="col"
            className={HEAD}
            title="Time the turn's tool calls took (parallel ones once)"
          >
            tool time
          </th>
          <th scope="col" className={HEAD}>
            cost
          </th>
        </tr>
      </thead>
      <tbody>
        {summary.perTurn.map((turn) => (
          <tr key={turn.turn} className="border-b border-border/50" data-turn={turn.turn}>
            <th scope="row" className="px-2 py-0.5 text-left font-normal text-fg">
              {turn.metricId === undefined ? (
                turn.turn
              ) : (
                <button
                  type="button"
                  className="hover:underline"
                  title="Show this turn's metric card"
                  onClick={() => usePlayground.getState().select(turn.metricId ?? null, turn.turn)}
                >
                  {turn.turn}
                </button>
              )}
              {turn.parent === undefined ? null : (
                <span
                  className="text-fg-subtle"
                  title={`A sub-agent run started by call ${turn.parent}`}
                >
                  {" "}
                  ↳
                </span>
              )}
            </th>
            <td className="max-w-40 truncate px-2 py-0.5" title={modelName(turn)}>
              {turn.model ?? "–"}
            </td>
            <td className={CELL}>{ms(turn.ttftMs)}</td>
            <td className={CELL}>{ms(turn.modelMs)}</td>
            <td className={CELL} data-col="wallMs" data-value={turn.wallMs}>
              {turn.parent === undefined ? formatDuration(turn.wallMs) : "(inside)"}
            </td>
            <td className={CELL} data-col="tokensIn" data-value={turn.tokensIn}>
              {formatCount(turn.tokensIn)}
            </td>
            {cached ? (
              <td
                className={CELL}
                data-col="cacheRead"
                data-value={turn.cacheRead}
                title={describeCache(turn) || undefined}
              >
                {formatCount(turn.cacheRead)}
              </td>
            ) : null}
            <td className={CELL} data-col="tokensOut" data-value={turn.tokensOut}>
              {formatCount(turn.tokensOut)}
            </td>
            <td className="px-2 py-0.5" title={TOKEN_SOURCE_TEXT[turn.tokenSource]}>
              {turn.tokenSource}
            </td>
            <td className={CELL} data-col="calls" data-value={turn.toolCalls}>
              {turn.toolCalls}
            </td>
            <td className={CELL} data-col="errors" data-value={turn.errors}>
              {turn.errors}
            </td>
            <td className={CELL}>{formatDuration(turn.toolTimeMs)}</td>
            <td
              className={CELL}
              data-col="cost"
              data-value={turn.cost?.usd ?? ""}
              title={describeTurnCost(turn)}
            >
              {turn.cost === null ? "no price" : formatUsd(turn.cost.usd)}
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="text-fg">
          <th scope="row" className="px-2 py-1 text-left font-normal">
            Σ
          </th>
          <td className="px-2 py-1">{summary.turns === 1 ? "1 turn" : `${summary.turns} turns`}</td>
          <td className={CELL}>{ms(summary.ttftMs)}</td>
          <td className={CELL}>{formatDuration(summary.modelTimeMs)}</td>
          <td className={CELL}>{formatDuration(summary.durationMs)}</td>
          <td className={CELL}>{formatCount(summary.tokensIn)}</td>
          {cached ? (
            <td className={CELL} title={describeCache(summary) || undefined}>
              {formatCount(summary.cacheRead)}
            </td>
          ) : null}
          <td className={CELL}>{formatCount(summary.tokensOut)}</td>
          <td className="px-2 py-1">{summary.tokenSource}</td>
          <td className={CELL}>{summary.toolCalls}</td>
          <td className={CELL}>{summary.errors}</td>
          <td className={CELL}>{formatDuration(summary.toolTimeMs)}</td>
          <td className={CELL} title={describeCost(summary.cost, shippedDate)}>
            {summary.cost === null ? "no price" : formatUsd(summary.cost.usd)}
          </td>
        </tr>
      </tfoot>
    </table>
  );
}
