import { loadavg } from "node:os";

/** A plain-text table: first column left-aligned, the others right-aligned. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return column === 0 ? cell.padEnd(width) : cell.padStart(width);
      })
      .join("   ")
      .trimEnd();
  const rule = widths.map((width) => "-".repeat(width)).join("   ");
  return [line(header), rule, ...rows.map(line)].join("\n");
}

export function fixed(value: number, digits = 1): string {
  return value.toFixed(digits);
}

/** The machine's three load averages (1, 5 and 15 minutes), two decimals each. */
export function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
}
