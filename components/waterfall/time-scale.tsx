import type { AxisBreak } from "./axis";

/**
 * The waterfall's time scale: 0, the time drawn to scale at the right, and a break mark (two
 * slashes) with the idle time over each place where a long gap was cut out of the axis.
 */
export function TimeScale({ breaks, shownMs }: { breaks: AxisBreak[]; shownMs: number }) {
  const cut = breaks.reduce((sum, gap) => sum + gap.cutMs, 0);
  return (
    <div
      className="relative mb-1 ml-32 flex h-4 justify-between font-mono text-[10px] text-fg-subtle"
      title={
        breaks.length === 0
          ? undefined
          : `${formatSpan(shownMs)} to scale; ${formatGap(cut)} with nothing recorded is cut out at the // marks.`
      }
      data-testid="waterfall-scale"
    >
      <span>0</span>
      <span>{formatSpan(shownMs)}</span>
      {breaks.map((gap) => (
        <span
          key={gap.from}
          className="absolute top-0 whitespace-nowrap bg-surface px-0.5 text-fg-muted"
          // From the break toward the middle, so it clears "0" and the span at the ends.
          style={
            gap.from + gap.to < 1
              ? { left: `${gap.from * 100}%` }
              : { right: `${(1 - gap.to) * 100}%` }
          }
          data-axis-break-label
        >
          <BreakMark /> {formatGap(gap.cutMs)}
          <span className="sr-only"> idle, cut from the time axis</span>
        </span>
      ))}
    </div>
  );
}

/** Two slashes, the usual mark of a broken axis (drawn: not every font has `⫽`). */
function BreakMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 8 10" className="inline-block h-2.5 w-2 align-[-1px]">
      <path d="M0.5 9.5 L3.5 0.5 M4.5 9.5 L7.5 0.5" stroke="currentColor" strokeWidth="1.2" />
    </svg>
  );
}

/** A hatched band down the bars' column at each break, so no bar seems to cross it. */
export function BreakBands({ breaks }: { breaks: AxisBreak[] }) {
  if (breaks.length === 0) return null;
  return (
    <div aria-hidden="true" className="pointer-events-none absolute inset-y-0 right-0 left-32">
      {breaks.map((gap) => (
        <div
          key={gap.from}
          className="absolute inset-y-0 border-x border-dashed border-fg-subtle/60 bg-[repeating-linear-gradient(135deg,transparent_0_3px,var(--color-border)_3px_4px)]"
          style={{ left: `${gap.from * 100}%`, width: `${(gap.to - gap.from) * 100}%` }}
          data-axis-break
        />
      ))}
    </div>
  );
}

export function formatSpan(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** A cut gap's length, to the two largest units: `8 s`, `12 min`, `3 h 20 min`, `2 d 4 h`. */
export function formatGap(ms: number): string {
  const units: [string, number][] = [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["min", 60_000],
    ["s", 1_000],
  ];
  const index = units.findIndex(([, size]) => ms >= size);
  if (index === -1) return `${Math.round(ms)} ms`;
  const [name, size] = units[index] as [string, number];
  const whole = Math.floor(ms / size);
  const next = units[index + 1];
  if (next === undefined) return `${whole} ${name}`;
  const rest = Math.floor((ms - whole * size) / next[1]);
  return rest === 0 ? `${whole} ${name}` : `${whole} ${name} ${rest} ${next[0]}`;
}
