import type { MetricEvent } from "@/lib/protocol";
import { CardFrame } from "../card-frame";
import { formatCount, formatDuration, tokensPerSecond } from "../format";

/** One model turn's numbers in a row: time to first token, tokens in → out, speed, duration. */
export function MetricCard({ event }: { event: MetricEvent }) {
  const { step } = event;
  const speed = tokensPerSecond(step);
  const items: { label: string; value: string; title: string }[] = [
    {
      label: "ttft",
      // A turn that got no token has none (it read "0 ms").
      value: step.ttftMs === undefined ? "–" : formatDuration(step.ttftMs),
      title: step.ttftMs === undefined ? "No token came" : "Time to first token",
    },
    {
      label: "tokens",
      value: `${formatCount(step.input)} → ${formatCount(step.output)}`,
      title: "Input tokens → output tokens",
    },
    {
      label: "tok/s",
      value: speed === null ? "–" : speed.toFixed(speed < 100 ? 1 : 0),
      title: "Output tokens per second, after the first token",
    },
    {
      label: "duration",
      value: formatDuration(step.durationMs),
      title: "Duration of the model turn",
    },
  ];
  return (
    <CardFrame
      event={event}
      className="flex flex-wrap items-center gap-x-3 gap-y-0.5 px-1 font-mono text-[11px] text-fg-subtle"
    >
      {items.map((item) => (
        <span key={item.label} title={item.title}>
          {item.label} <span className="text-fg-muted">{item.value}</span>
        </span>
      ))}
      <span className="ml-auto" title="Whole run so far: input → output tokens, duration">
        Σ {formatCount(event.total.input)} → {formatCount(event.total.output)} ·{" "}
        {formatDuration(event.total.durationMs)}
      </span>
    </CardFrame>
  );
}
