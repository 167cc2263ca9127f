"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useFrameVersion } from "@/hooks/use-frame-version";
import { turnOf } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { EventFilter } from "./event-filter";
import { eventJson } from "./event-json";
import { EVENT_COLUMNS, EventRow, EXPANDED_CHARS, eventRowId } from "./event-row";
import { countByType, filterEvents } from "./filter-events";
import { RawView } from "./raw-view";
import { nextExpansion, rowAfterKey } from "./table-keys";
import { wirePaletteStyle } from "./wire-theme";

/**
 * Events: every parsed event merged by id, as a compact table (type, name, turn, span, time)
 * with the JSON on expand, filterable by type, linked like the timeline. One tab stop: the
 * arrow keys move the selection, Enter expands. "Raw beside" splits the tab with the raw view.
 */
export function EventsView() {
  const version = useFrameVersion();
  const log = usePlayground((state) => state.log);
  const filter = usePlayground((state) => state.eventFilter);
  const hoveredId = usePlayground((state) => state.hoveredId);
  const selectedId = usePlayground((state) => state.selectedId);
  const theme = usePlayground((state) => state.theme);
  const hover = usePlayground((state) => state.hover);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const [full, setFull] = useState<ReadonlySet<string>>(new Set());
  const [withRaw, setWithRaw] = useState(false);
  const scroller = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the log mutates in place; `version` says when
  const events = useMemo(() => filterEvents(log.events, filter), [log, filter, version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  const counts = useMemo(() => countByType(log.events), [log, version]);
  const start = log.events[0]?.timestamp ?? 0;

  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 25,
    overscan: 12,
    getItemKey: (index) => events[index]?.id ?? index,
    initialRect: { width: 480, height: 800 },
  });

  // Scroll the selected row into view when the selection changes (not on every new event).
  const selectedIndex =
    selectedId === null ? -1 : events.findIndex((event) => event.id === selectedId);
  const scrollTo = useRef(virtualizer.scrollToIndex);
  scrollTo.current = virtualizer.scrollToIndex;
  useEffect(() => {
    if (selectedIndex !== -1) scrollTo.current(selectedIndex, { align: "auto" });
  }, [selectedIndex]);

  const onSelect = useCallback((event: ProtocolEvent) => {
    usePlayground.getState().select(event.id, turnOf(event) ?? null);
  }, []);
  const onToggle = useCallback((id: string) => {
    setExpanded((current) => toggled(current, id));
  }, []);
  const onShowAll = useCallback((id: string) => {
    setFull((current) => toggled(current, id));
  }, []);

  const onKeyDown = (key: KeyboardEvent) => {
    const next = rowAfterKey(key.key, selectedIndex, events.length);
    if (next !== null) {
      key.preventDefault();
      const event = events[next];
      if (event !== undefined) onSelect(event);
      return;
    }
    const active = events[selectedIndex];
    if ((key.key === "Enter" || key.key === " ") && active !== undefined) {
      key.preventDefault();
      const long = eventJson(active).length > EXPANDED_CHARS;
      const step = nextExpansion(expanded.has(active.id), full.has(active.id), long);
      setExpanded((current) => withMember(current, active.id, step !== "collapsed"));
      setFull((current) => withMember(current, active.id, step === "full"));
    }
  };

  const table = (
    <div className="flex min-h-0 flex-1 flex-col">
      <div
        aria-hidden="true"
        className={`${EVENT_COLUMNS} shrink-0 border-b border-border py-1 pr-2 pl-5 font-mono text-[10px] tracking-wide text-fg-subtle uppercase`}
      >
        <span>type</span>
        <span>name</span>
        <span className="text-right">turn</span>
        <span className="text-right">span</span>
        <span className="text-right">time</span>
      </div>
      <div
        ref={scroller}
        className="min-h-0 flex-1 overflow-auto focus-visible:outline focus-visible:outline-1 focus-visible:-outline-offset-1 focus-visible:outline-accent"
        role="listbox"
        tabIndex={0}
        aria-label="Parsed events (arrow keys move, Enter shows the JSON)"
        aria-activedescendant={
          selectedIndex === -1 ? undefined : eventRowId(events[selectedIndex]?.id ?? "")
        }
        onKeyDown={onKeyDown}
        data-testid="events-view"
      >
        {events.length === 0 ? (
          <p className="p-4 text-xs text-fg-subtle">
            {log.events.length === 0 ? "No events yet." : "No events of the chosen types."}
          </p>
        ) : (
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const event = events[item.index];
              if (event === undefined) return null;
              return (
                <div
                  key={item.key}
                  ref={virtualizer.measureElement}
                  data-index={item.index}
                  className="absolute top-0 left-0 w-full"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <EventRow
                    event={event}
                    offset={event.timestamp - start}
                    selected={event.id === selectedId}
                    hovered={event.id === hoveredId}
                    expanded={expanded.has(event.id)}
                    full={full.has(event.id)}
                    onToggle={onToggle}
                    onShowAll={onShowAll}
                    onHover={hover}
                    onSelect={onSelect}
                  />
                </div>
              );
            })}
          </div>
        )}
      </div>
    </div>
  );

  return (
    <div className="@container flex min-h-0 flex-1 flex-col" style={wirePaletteStyle(theme)}>
      <div className="flex shrink-0 items-center">
        <div className="min-w-0 flex-1">
          <EventFilter counts={counts} />
        </div>
        <button
          type="button"
          aria-pressed={withRaw}
          onClick={() => setWithRaw(!withRaw)}
          title="Show the raw text beside the table: hover or pick a row to see its span"
          className={`mr-2 shrink-0 rounded border border-border px-1.5 py-0.5 text-[11px] hover:bg-surface-2 hover:text-fg ${
            withRaw ? "bg-surface-2 text-fg" : "text-fg-muted"
          }`}
        >
          Raw beside
        </button>
      </div>
      {withRaw ? (
        <div
          className="flex min-h-0 flex-1 flex-col @min-[44rem]:flex-row"
          data-testid="events-with-raw"
        >
          {table}
          <div className="flex min-h-0 flex-1 flex-col border-t border-border @min-[44rem]:border-t-0 @min-[44rem]:border-l">
            <RawView />
          </div>
        </div>
      ) : (
        table
      )}
    </div>
  );
}

function toggled(set: ReadonlySet<string>, id: string): ReadonlySet<string> {
  return withMember(set, id, !set.has(id));
}

function withMember(set: ReadonlySet<string>, id: string, member: boolean): ReadonlySet<string> {
  if (set.has(id) === member) return set;
  const next = new Set(set);
  if (member) next.add(id);
  else next.delete(id);
  return next;
}
