"use client";

import { EVENT_TYPES, type EventType } from "@/lib/protocol/events";
import { usePlayground } from "@/state/playground-store";
import { type EventFilter as Filter, toggleType } from "./filter-events";

const CHIP =
  "rounded-full border px-2 py-px font-mono text-[11px] leading-4 transition-colors aria-pressed:border-accent/60 aria-pressed:bg-accent/15 aria-pressed:text-fg";

/** Chips that filter the Events list by type (store `eventFilter`; none pressed = all). */
export function EventFilter({ counts }: { counts: ReadonlyMap<EventType, number> }) {
  const filter: Filter = usePlayground((state) => state.eventFilter);
  const setUi = usePlayground((state) => state.setUi);
  const types = EVENT_TYPES.filter((type) => (counts.get(type) ?? 0) > 0 || filter?.includes(type));

  return (
    <fieldset
      className="flex flex-wrap items-center gap-1 border-b border-border px-3 py-1.5"
      aria-label="Filter events by type"
    >
      <button
        type="button"
        className={`${CHIP} border-border text-fg-muted hover:text-fg`}
        aria-pressed={filter === null}
        onClick={() => setUi({ eventFilter: null })}
      >
        all
      </button>
      {types.map((type) => (
        <button
          key={type}
          type="button"
          className={`${CHIP} border-border text-fg-muted hover:text-fg`}
          aria-pressed={filter?.includes(type) ?? false}
          onClick={() => setUi({ eventFilter: toggleType(filter, type) })}
        >
          {type}
          <span className="ml-1 text-fg-subtle">{counts.get(type) ?? 0}</span>
        </button>
      ))}
    </fieldset>
  );
}
