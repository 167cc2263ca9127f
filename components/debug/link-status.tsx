"use client";

import { spanOf, turnOf } from "@/lib/client/run-log";
import { usePlayground } from "@/state/playground-store";

/** The event the panel is linked to (hovered, else selected): type, turn and span, and a way to let go. */
export function LinkStatus() {
  const log = usePlayground((state) => state.log);
  const hoveredId = usePlayground((state) => state.hoveredId);
  const selectedId = usePlayground((state) => state.selectedId);
  const select = usePlayground((state) => state.select);
  const event = log.get(hoveredId ?? "") ?? log.get(selectedId ?? "");
  if (event === undefined) return null;
  const span = spanOf(event);
  const turn = turnOf(event);

  return (
    <div className="ml-auto flex min-w-0 items-center gap-1.5 font-mono text-[11px] text-fg-subtle">
      <span className="truncate" title={event.id}>
        <span className="text-fg-muted">{event.type}</span>
        {turn === undefined ? "" : ` · turn ${turn}`}
        {span === undefined ? "" : ` · ${span.start}–${span.end}`}
      </span>
      {selectedId !== null ? (
        <button
          type="button"
          aria-label="Clear the selection"
          title="Clear the selection"
          onClick={() => select(null)}
          className="rounded px-1 text-fg-subtle hover:bg-surface-2 hover:text-fg"
        >
          ×
        </button>
      ) : null}
    </div>
  );
}
