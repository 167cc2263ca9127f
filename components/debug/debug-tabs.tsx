"use client";

import type { DebugTab } from "@/state/playground-store";
import { formatCount } from "./format-count";

export const DEBUG_TABS: readonly { id: DebugTab; label: string }[] = [
  { id: "raw", label: "Raw" },
  { id: "events", label: "Events" },
  { id: "chunks", label: "Chunks" },
  { id: "request", label: "Request" },
];

/** The debug panel's tab strip; arrow keys move between tabs. */
export function DebugTabs({
  current,
  counts,
  onChange,
}: {
  current: DebugTab;
  counts: Partial<Record<DebugTab, number>>;
  onChange(tab: DebugTab): void;
}) {
  const move = (step: number) => {
    const at = DEBUG_TABS.findIndex((tab) => tab.id === current);
    const next = DEBUG_TABS[(at + step + DEBUG_TABS.length) % DEBUG_TABS.length];
    if (next !== undefined) onChange(next.id);
  };
  return (
    <div
      role="tablist"
      aria-label="Debug views"
      className="flex items-center gap-0.5"
      onKeyDown={(event) => {
        if (event.key === "ArrowRight") move(1);
        if (event.key === "ArrowLeft") move(-1);
      }}
    >
      {DEBUG_TABS.map((tab) => {
        const count = counts[tab.id];
        return (
          <button
            key={tab.id}
            type="button"
            role="tab"
            id={`debug-tab-${tab.id}`}
            aria-selected={tab.id === current}
            aria-controls="debug-tabpanel"
            tabIndex={tab.id === current ? 0 : -1}
            onClick={() => onChange(tab.id)}
            className="rounded px-2 py-1 text-xs text-fg-muted hover:text-fg aria-selected:bg-surface-2 aria-selected:text-fg"
          >
            {tab.label}
            {count === undefined ? null : (
              // A narrow panel drops the counts so that the copy button beside the tabs stays whole.
              <span className="ml-1 hidden font-mono text-[10px] text-fg-subtle tabular-nums @[28rem]:inline">
                {formatCount(count)}
              </span>
            )}
          </button>
        );
      })}
    </div>
  );
}
