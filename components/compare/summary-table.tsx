import type { RunSummary } from "@/lib/metrics";

interface Line {
  label: string;
  value(summary: RunSummary): string;
  /** A number to compare the two sides by; undefined: shown, not compared. */
  number?(summary: RunSummary): number | null;
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
  { label: "Tokens out", value: (s) => tokens(s.tokensOut, s), number: (s) => s.tokensOut },
  {
    label: "Cost",
    value: (s) =>
      s.cost === null
        ? "no price"
        : `$${s.cost.usd.toFixed(s.cost.usd < 0.01 ? 5 : 3)}${s.cost.unpriced.length > 0 ? " (part)" : ""}`,
    number: (s) => s.cost?.usd ?? null,
  },
];

/** The numbers of each side (`lib/metrics`), one row per figure; a figure that differs is marked. */
export function SummaryTable(props: { a: RunSummary; b: RunSummary }) {
  return (
    <table className="w-full max-w-3xl border-collapse text-[12px]" data-testid="compare-summary">
      <caption className="sr-only">Summary of each side</caption>
      <thead>
        <tr className="text-left text-[11px] text-fg-muted">
          <th scope="col" className="py-0.5 pr-3 font-medium">
            Figure
          </th>
          <th scope="col" className="py-0.5 pr-3 font-medium">
            A
          </th>
          <th scope="col" className="py-0.5 font-medium">
            B
          </th>
        </tr>
      </thead>
      <tbody>
        {LINES.map((line) => {
          const left = line.number?.(props.a) ?? null;
          const right = line.number?.(props.b) ?? null;
          const differs = left !== right;
          return (
            <tr key={line.label} className="border-t border-border" data-differs={differs}>
              <th scope="row" className="py-0.5 pr-3 text-left font-normal text-fg-muted">
                {line.label}
              </th>
              <td className="py-0.5 pr-3 font-mono tabular-nums text-fg">{line.value(props.a)}</td>
              <td className={`py-0.5 font-mono tabular-nums ${differs ? "text-warn" : "text-fg"}`}>
                {line.value(props.b)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
