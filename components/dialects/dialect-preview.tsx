"use client";

import { useMemo, useState } from "react";
import { EVENT_BADGE } from "@/components/debug/event-style";
import type { DialectDefinition, EventType } from "@/lib/protocol";
import { previewOf } from "./preview-model";

/** How each event type's span is tinted in the sample; text outside every span stays plain. */
const TINT: Record<EventType, string> = {
  user: "",
  think: "bg-surface-2 text-fg-muted",
  call: "bg-info/20 text-fg",
  execute: "bg-info/10 text-fg",
  result: "bg-accent/15",
  respond: "text-fg",
  end: "bg-surface-2",
  metric: "",
  error: "bg-danger/20 text-fg underline decoration-danger decoration-wavy",
  interrupt: "",
};

/** The live preview: the sample with its events' spans tinted, and the events in order. */
export function DialectPreview(props: { definition: DialectDefinition; sample: string }) {
  const { rows, segments } = useMemo(
    () => previewOf(props.definition, props.sample),
    [props.definition, props.sample],
  );
  const [hovered, setHovered] = useState<string | null>(null);
  const focus = rows.find((row) => row.id === hovered);
  return (
    <section className="flex min-w-0 flex-col gap-2" aria-label="Preview">
      <pre
        data-testid="dialect-sample"
        // It scrolls: a keyboard stop of its own, so the arrow keys can scroll a long sample.
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to scroll by keyboard
        tabIndex={0}
        className="max-h-48 overflow-auto whitespace-pre-wrap break-words rounded-md border border-border bg-bg p-2 font-mono text-[11px] leading-relaxed text-fg-subtle"
      >
        {segments.map((segment) => {
          const inFocus =
            focus !== undefined && segment.start >= focus.start && segment.start < focus.end;
          return (
            <span
              key={segment.start}
              data-type={segment.type ?? undefined}
              className={`${segment.type === null ? "" : TINT[segment.type]} ${inFocus ? "outline outline-1 outline-accent" : ""}`}
            >
              {segment.text}
            </span>
          );
        })}
      </pre>
      <ol aria-label="Events" className="max-h-48 overflow-auto rounded-md border border-border">
        {rows.length === 0 ? (
          <li className="px-2 py-1 text-xs text-fg-subtle">No events: the sample is empty.</li>
        ) : null}
        {rows.map((row) => (
          <li
            key={row.id}
            onMouseEnter={() => setHovered(row.id)}
            onMouseLeave={() => setHovered(null)}
            className="flex items-baseline gap-2 border-b border-border px-2 py-1 text-xs last:border-b-0 hover:bg-surface-2"
          >
            <span
              className={`shrink-0 rounded border px-1 font-mono text-[10px] ${EVENT_BADGE[row.type]}`}
            >
              {row.type}
            </span>
            <span
              className="min-w-0 flex-1 truncate font-mono text-[11px] text-fg"
              title={row.text}
            >
              {row.text}
            </span>
            <span className="shrink-0 font-mono text-[10px] text-fg-subtle">
              {row.start}–{row.end}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
