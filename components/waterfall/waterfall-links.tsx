import type { WaterfallRow } from "./layout";

/**
 * The action dependencies as lines over the bars: from the end of the call waited for to the
 * start of the call that waited. Drawn in the bars' column (it starts after the 8rem labels);
 * x in percent of that column, y at row centres.
 */
export function WaterfallLinks({ rows, rowHeight }: { rows: WaterfallRow[]; rowHeight: number }) {
  const index = new Map(rows.map((row, at) => [row.key, at]));
  const lines = rows.flatMap((row, at) =>
    row.dependsOn.flatMap((key) => {
      const from = index.get(key);
      const source = from === undefined ? undefined : rows[from];
      if (from === undefined || source === undefined) return [];
      const x1 = Math.max(...source.segments.map((segment) => segment.to)) * 100;
      const x2 = Math.min(...row.segments.map((segment) => segment.from)) * 100;
      return [
        {
          key: `${key}>${row.key}`,
          x1,
          x2,
          y1: (from + 0.5) * rowHeight,
          y2: (at + 0.5) * rowHeight,
        },
      ];
    }),
  );
  if (lines.length === 0) return null;
  return (
    <svg
      aria-hidden="true"
      className="pointer-events-none absolute inset-y-0 right-0 left-32 h-full overflow-visible text-fg-muted"
      style={{ width: "calc(100% - 8rem)" }}
      data-testid="waterfall-links"
    >
      {lines.map((line) => (
        <g key={line.key} data-dependency={line.key}>
          <line
            x1={`${line.x1}%`}
            y1={line.y1}
            x2={`${line.x1}%`}
            y2={line.y2}
            stroke="currentColor"
            strokeWidth={1}
            strokeDasharray="2 2"
          />
          <line
            x1={`${line.x1}%`}
            y1={line.y2}
            x2={`${line.x2}%`}
            y2={line.y2}
            stroke="currentColor"
            strokeWidth={1}
          />
        </g>
      ))}
    </svg>
  );
}
