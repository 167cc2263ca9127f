"use client";

import { usePlayground } from "@/state/playground-store";

/** Placeholder: the raw text of each turn (the debug panel replaces this). */
export function DebugPanel() {
  usePlayground((state) => state.version);
  const log = usePlayground((state) => state.log);
  return (
    <div
      className="min-h-0 flex-1 overflow-auto p-3 font-mono text-xs whitespace-pre-wrap"
      data-testid="debug-panel"
    >
      {[...log.turns.values()].map((turn) => (
        <pre key={turn.turn}>{turn.raw}</pre>
      ))}
    </div>
  );
}
