"use client";

import { usePlayground } from "@/state/playground-store";

/** Placeholder: every event as a line (the card timeline replaces this). */
export function Timeline() {
  usePlayground((state) => state.version);
  const log = usePlayground((state) => state.log);
  return (
    <div className="min-h-0 flex-1 overflow-y-auto p-4 font-mono text-xs" data-testid="timeline">
      {log.events.map((event) => (
        <div key={event.id} data-event-type={event.type}>
          {event.type} {"content" in event ? event.content : ""}
        </div>
      ))}
    </div>
  );
}
