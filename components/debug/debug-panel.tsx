"use client";

import { useDeferredValue } from "react";
import { useFrameVersion } from "@/hooks/use-frame-version";
import type { RunLog } from "@/lib/client/run-log";
import { type DebugTab, usePlayground } from "@/state/playground-store";
import { ChunksView } from "./chunks-view";
import { DebugTabs } from "./debug-tabs";
import { EventsView } from "./events-view";
import { LinkStatus } from "./link-status";
import { RawView } from "./raw-view";
import { RawWhitespaceToggle } from "./raw-whitespace-toggle";
import { RequestView } from "./request-view";
import { TurnCopy } from "./turn-copy";

/** Each view gets the log to draw; those that follow the store's own ignore it. */
const VIEWS: Record<DebugTab, (props: { log: RunLog }) => React.JSX.Element> = {
  raw: RawView,
  events: EventsView,
  chunks: ChunksView,
  request: RequestView,
};

const runKeys = new WeakMap<RunLog, number>();
let nextRunKey = 0;
/** A key per run log, so each run's views start fresh (scroll, caches, tokens). */
function runKey(log: RunLog): number {
  let key = runKeys.get(log);
  if (key === undefined) {
    key = nextRunKey++;
    runKeys.set(log, key);
  }
  return key;
}

/**
 * The debug panel: the wire beside the timeline — Raw, Events, Chunks and Request.
 *
 * A new log (a transcript opened, older records put in front) reaches the view in a deferred
 * render: the timeline's cards commit and paint first, then the view is drawn in slices React
 * yields between, while the old one stays on screen. A run's log grows in place (the same
 * object), so streaming is not held back.
 */
export function DebugPanel() {
  useFrameVersion();
  const log = usePlayground((state) => state.log);
  const shown = useDeferredValue(log);
  const tab = usePlayground((state) => state.debugTab);
  const setUi = usePlayground((state) => state.setUi);
  const View = VIEWS[tab];

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-testid="debug-panel">
      <div className="@container flex h-9 shrink-0 items-center gap-2 border-b border-border px-2">
        <DebugTabs
          current={tab}
          counts={{ events: log.events.length, chunks: log.chunks.length }}
          onChange={(debugTab) => setUi({ debugTab })}
        />
        <div className="ml-auto flex min-w-0 items-center gap-2">
          <LinkStatus />
          {tab === "raw" ? (
            <span className="flex shrink-0 items-center gap-1">
              <RawWhitespaceToggle />
              <TurnCopy />
            </span>
          ) : null}
        </div>
      </div>
      <div
        id="debug-tabpanel"
        role="tabpanel"
        aria-labelledby={`debug-tab-${tab}`}
        className="flex min-h-0 flex-1 flex-col"
      >
        <View key={runKey(shown)} log={shown} />
      </div>
    </div>
  );
}
