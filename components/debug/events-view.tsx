"use client";

import { useVirtualizer } from "@tanstack/react-virtual";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useFrameVersion } from "@/hooks/use-frame-version";
import { turnOf } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { EventFilter } from "./event-filter";
import { EventRow } from "./event-row";
import { countByType, filterEvents } from "./filter-events";
import { wirePaletteStyle } from "./wire-theme";

/** Events: every parsed event merged by id, as JSON, filterable by type, linked like the timeline. */
export function EventsView() {
  const version = useFrameVersion();
  const log = usePlayground((state) => state.log);
  const filter = usePlayground((state) => state.eventFilter);
  const hoveredId = usePlayground((state) => state.hoveredId);
  const selectedId = usePlayground((state) => state.selectedId);
  const theme = usePlayground((state) => state.theme);
  const hover = usePlayground((state) => state.hover);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const scroller = useRef<HTMLDivElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the log mutates in place; `version` says when
  const events = useMemo(() => filterEvents(log.events, filter), [log, filter, version]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above
  const counts = useMemo(() => countByType(log.events), [log, version]);

  const virtualizer = useVirtualizer({
    count: events.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 96,
    overscan: 6,
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
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);

  return (
    <div className="flex min-h-0 flex-1 flex-col" style={wirePaletteStyle(theme)}>
      <EventFilter counts={counts} />
      <div
        ref={scroller}
        className="min-h-0 flex-1 overflow-auto"
        role="listbox"
        aria-label="Parsed events"
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
                    selected={event.id === selectedId}
                    hovered={event.id === hoveredId}
                    expanded={expanded.has(event.id)}
                    onToggle={onToggle}
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
}
