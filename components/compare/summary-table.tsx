import { formatUsd } from "@/lib/cost/format";
import type { RunSummary } from "@/lib/metrics";

interface Line {
  label: string;
  value(summary: RunSummary): string;
  /** A number to compare the two sides by; undefined: shown, not compared. */
  number?(summary: RunSummary): number | null;
  /** Shown only when either side has it (input the prompt cache served). */
  onlyIf?(summary: RunSummary): boolean;
}

const ms = (value: number | null) =>
  value === null
    ? "—"
    : value < 1_000
      ? `${Math.round(value)} ms`
      : `${(value / 1000).toFixed(2)} s`;
const count = (value: number) => value.toLocaleString("en-US");
const tokens = (value: number, summary: RunSummary) =>
  `${count(value)}${summary.tokenSource === "estimate" ? " (est.)" : summary.tokenSource === "mixed" ? " (part est.)" : ""}`;

const LINES: Line[] = [
  { label: "Turns", value: (s) => count(s.turns), number: (s) => s.turns },
  { label: "Tool calls", value: (s) => count(s.toolCalls), number: (s) => s.toolCalls },
  { label: "Errors", value: (s) => count(s.errors), number: (s) => s.errors },
  { label: "Time to first token", value: (s) => ms(s.ttftMs), number: (s) => s.ttftMs },
  { label: "Total duration", value: (s) => ms(s.durationMs), number: (s) => s.durationMs },
  { label: "Tool time", value: (s) => ms(s.toolTimeMs), number: (s) => s.toolTimeMs },
  { label: "Tokens in", value: (s) => tokens(s.tokensIn, s), number: (s) => s.tokensIn },
  {
    label: "Cached in",
    value: (s) => count(s.cacheRead),
    number: (s) => s.cacheRead,
    onlyIf: (s) => s.cacheRead > 0 || s.cacheWrite > 0,
  },
  { label: "Tokens out", value: (s) => tokens(s.tokensOut, s), number: (s) => s.tokensOut },
  {
    label: "Cost",
    value: (s) =>
      s.cost === null
        ? "no price"
        : `${formatUsd(s.cost.usd)}${s.cost.unpriced.length > 0 ? " (part)" : ""}`,
    number: (s) => s.cost?.usd ?? null,
  },
];

/**
 * The numbers of each side (`lib/metrics`): a row per side, a column per figure, so it stays
 * three lines high; B's figures that differ from A's are marked. Scrolls sideways when narrow.
 */
export function SummaryTable(props: { a: RunSummary; b: RunSummary }) {
  const sides = [
    { name: "A", summary: props.a },
    { name: "B", summary: props.b },
  ];
  const lines = LINES.filter(
    (line) => line.onlyIf === undefined || line.onlyIf(props.a) || line.onlyIf(props.b),
  );
  return (
    <div className="overflow-x-auto">
      <table className="border-collapse text-[12px]" data-testid="compare-summary">
        <caption className="sr-only">The figures of each side</caption>
        <thead>
          <tr className="text-left text-[11px] text-fg-muted">
            <th scope="col" className="py-0.5 pr-3 font-medium">
              <span className="sr-only">Side</span>
            </th>
            {lines.map((line) => (
              <th
                key={line.label}
                scope="col"
                className="whitespace-nowrap py-0.5 pr-4 font-medium"
              >
                {line.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {sides.map(({ name, summary }) => (
            <tr key={name} className="border-t border-border">
              <th scope="row" className="py-0.5 pr-3 text-left font-mono font-medium text-fg-muted">
                {name}
              </th>
              {lines.map((line) => {
                const differs =
                  name === "B" &&
                  (line.number?.(props.a) ?? null) !== (line.number?.(props.b) ?? null);
                return (
                  <td
                    key={line.label}
                    className={`whitespace-nowrap py-0.5 pr-4 font-mono tabular-nums ${differs ? "text-warn" : "text-fg"}`}
                    data-differs={differs || undefined}
                  >
                    {line.value(summary)}
                    {differs ? <span className="sr-only"> (differs from A)</span> : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
