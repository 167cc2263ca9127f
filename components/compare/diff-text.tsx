import type { Range } from "@/lib/compare";

/** Mark colours per side: removed in A (danger), added in B (accent). */
const MARK = {
  a: "rounded-sm bg-danger/25 text-fg line-through decoration-danger/60",
  b: "rounded-sm bg-accent/25 text-fg underline decoration-accent/70",
} as const;

/**
 * A turn's raw wire text with the ranges the other side lacks marked (`<del>` on side A,
 * `<ins>` on side B, so the difference reads without colour too).
 */
export function DiffText(props: {
  text: string;
  ranges: readonly Range[] | null;
  side: "a" | "b";
}) {
  const { text, ranges, side } = props;
  const parts: React.ReactNode[] = [];
  let at = 0;
  const Mark = side === "a" ? "del" : "ins";
  for (const range of ranges ?? []) {
    if (range.start > at) parts.push(text.slice(at, range.start));
    parts.push(
      <Mark key={range.start} className={MARK[side]} data-diff-mark={side}>
        {text.slice(range.start, range.end)}
      </Mark>,
    );
    at = range.end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return (
    <pre className="m-0 whitespace-pre-wrap break-all font-mono text-[12px] leading-[1.5] text-wire-fg">
      {text === "" ? <span className="text-fg-subtle italic">(no model text)</span> : parts}
    </pre>
  );
}
