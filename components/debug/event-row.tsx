"use client";

import { memo } from "react";
import { spanOf, turnOf } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { eventJson } from "./event-json";
import { EVENT_BADGE } from "./event-style";
import { eventSummary, formatOffset } from "./event-summary";
import { formatCount } from "./format-count";
import { WireCode } from "./wire-code";

/** Characters of JSON an expanded row shows before "show all". */
export const EXPANDED_CHARS = 8_000;

/** The table's columns: type, name, turn, span, time (shared with the header). */
export const EVENT_COLUMNS = "grid grid-cols-[5.25rem_minmax(0,1fr)_2.5rem_6.5rem_4rem] gap-x-2";

interface EventRowProps {
  event: ProtocolEvent;
  /** ms since the log's first event. */
  offset: number;
  selected: boolean;
  hovered: boolean;
  expanded: boolean;
  /** The whole JSON even when long ("show all"). */
  full: boolean;
  onToggle(id: string): void;
  onShowAll(id: string): void;
  onHover(id: string | null): void;
  onSelect(event: ProtocolEvent): void;
}

export const eventRowId = (id: string) => `event-row-${id}`;

/**
 * One merged event as a compact table row (type, name, turn, span, time); expanded, its JSON
 * below. Linked to the raw text and the timeline by hover and click. The list it sits in
 * owns the keyboard (arrows move the selection, Enter expands), so a row takes no focus.
 */
export const EventRow = memo(function EventRow(props: EventRowProps) {
  const { event, offset, selected, hovered, expanded, full } = props;
  const { onToggle, onShowAll, onHover, onSelect } = props;
  const span = spanOf(event);
  const turn = turnOf(event);
  const json = expanded ? eventJson(event) : "";
  const long = json.length > EXPANDED_CHARS;

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the listbox handles the keys (arrows, Enter) for its active row
    <div
      role="option"
      id={eventRowId(event.id)}
      aria-selected={selected}
      data-expanded={expanded || undefined}
      tabIndex={-1}
      data-event-row={event.type}
      data-row-id={event.id}
      onMouseEnter={() => onHover(event.id)}
      onMouseLeave={() => onHover(null)}
      onClick={() => onSelect(event)}
      onDoubleClick={() => onToggle(event.id)}
      className={`cursor-pointer border-b border-l-2 border-b-border/60 ${
        selected
          ? "border-l-info bg-info/10"
          : hovered
            ? "border-l-accent/70 bg-surface-2"
            : "border-l-transparent hover:bg-surface-2"
      }`}
    >
      <div
        className={`${EVENT_COLUMNS} items-center py-1 pr-2 pl-1 font-mono text-[11px] leading-4`}
      >
        <span className="flex min-w-0 items-center gap-1">
          <button
            type="button"
            tabIndex={-1}
            aria-hidden="true"
            title={expanded ? "Hide the JSON" : "Show the JSON"}
            onClick={(click) => {
              click.stopPropagation();
              onToggle(event.id);
            }}
            className="w-3 shrink-0 text-fg-subtle hover:text-fg"
          >
            {expanded ? "▾" : "▸"}
          </button>
          <span className={`truncate rounded border px-1 ${EVENT_BADGE[event.type]}`}>
            {event.type}
          </span>
        </span>
        <span className="truncate text-fg" title={eventSummary(event)}>
          {eventSummary(event)}
        </span>
        <span className="text-right text-fg-subtle tabular-nums">{turn ?? ""}</span>
        <span className="truncate text-right text-fg-subtle tabular-nums">
          {span === undefined ? "" : `${span.start}–${span.end}`}
        </span>
        <span className="text-right text-fg-subtle tabular-nums">{formatOffset(offset)}</span>
      </div>
      {expanded ? (
        <div className="pr-2 pb-1.5 pl-5">
          <p className="truncate font-mono text-[10px] text-fg-subtle">{event.id}</p>
          <pre className="font-mono text-xs leading-[18px] whitespace-pre-wrap [overflow-wrap:anywhere]">
            <WireCode
              text={long && !full ? `${json.slice(0, EXPANDED_CHARS)}…` : json}
              lang="json"
            />
          </pre>
          {long && !full ? (
            <button
              type="button"
              tabIndex={-1}
              className="mt-0.5 font-mono text-[11px] text-fg-subtle hover:text-fg"
              onClick={(click) => {
                click.stopPropagation();
                onShowAll(event.id);
              }}
            >
              show all ({formatCount(json.length)} chars)
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
});
