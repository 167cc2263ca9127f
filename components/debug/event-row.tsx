"use client";

import { memo } from "react";
import { spanOf, turnOf } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { eventJson } from "./event-json";
import { EVENT_BADGE } from "./event-style";
import { formatCount } from "./format-count";
import { WireCode } from "./wire-code";

/** Lines of JSON shown before "show all". */
const PREVIEW_LINES = 8;
/** Characters of a line shown before "show all". */
const PREVIEW_WIDTH = 240;

interface EventRowProps {
  event: ProtocolEvent;
  selected: boolean;
  hovered: boolean;
  expanded: boolean;
  onToggle(id: string): void;
  onHover(id: string | null): void;
  onSelect(event: ProtocolEvent): void;
}

/** One merged event as JSON, linked to the raw text and the timeline by hover and click. */
export const EventRow = memo(function EventRow(props: EventRowProps) {
  const { event, selected, hovered, expanded, onToggle, onHover, onSelect } = props;
  const json = eventJson(event);
  const lines = json.split("\n");
  const preview = lines
    .slice(0, PREVIEW_LINES)
    .map((line) => (line.length > PREVIEW_WIDTH ? `${line.slice(0, PREVIEW_WIDTH)}…` : line))
    .join("\n");
  const long = preview !== json;
  const shown = long && !expanded ? preview : json;
  const span = spanOf(event);
  const turn = turnOf(event);

  return (
    <div
      role="option"
      aria-selected={selected}
      tabIndex={-1}
      data-event-row={event.type}
      data-row-id={event.id}
      onMouseEnter={() => onHover(event.id)}
      onMouseLeave={() => onHover(null)}
      onClick={() => onSelect(event)}
      onKeyDown={(key) => {
        if (key.key === "Enter") onSelect(event);
      }}
      className={`cursor-pointer border-b border-l-2 border-b-border/60 px-3 py-1.5 ${
        selected
          ? "border-l-info bg-info/10"
          : hovered
            ? "border-l-accent/70 bg-surface-2"
            : "border-l-transparent hover:bg-surface-2"
      }`}
    >
      <div className="flex items-center gap-2 font-mono text-[11px] text-fg-subtle">
        <span className={`rounded border px-1.5 leading-4 ${EVENT_BADGE[event.type]}`}>
          {event.type}
        </span>
        <span className="truncate">{event.id}</span>
        <span className="ml-auto shrink-0">
          {turn === undefined ? "" : `turn ${turn}`}
          {span === undefined ? "" : ` · ${span.start}–${span.end}`}
        </span>
      </div>
      <pre className="mt-1 font-mono text-xs leading-[18px] whitespace-pre-wrap [overflow-wrap:anywhere]">
        <WireCode text={shown} lang="json" />
      </pre>
      {long ? (
        <button
          type="button"
          className="mt-0.5 font-mono text-[11px] text-fg-subtle hover:text-fg"
          onClick={(click) => {
            click.stopPropagation();
            onToggle(event.id);
          }}
        >
          {expanded ? "show less" : `show all (${formatCount(json.length)} chars)`}
        </button>
      ) : null}
    </div>
  );
});
