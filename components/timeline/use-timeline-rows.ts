"use client";

import { useRef } from "react";
import { useFrameVersion } from "@/hooks/use-frame-version";
import type { RunLog } from "@/lib/client/run-log";
import { usePlayground } from "@/state/playground-store";
import { isShownElsewhere } from "./cards/result-card";

interface Rows {
  log: RunLog;
  scanned: number;
  ids: string[];
}

/**
 * The ids of the timeline's top-level cards, in order: every event except those of sub-agent
 * runs (they nest under their call) and results whose call or malformed call's error is in the
 * log (they show in that card). The log only appends, so each event is looked at once: a long run stays
 * linear. A new array only when rows were added, so the virtualizer sees a change then.
 * Catches up once per animation frame, however fast records arrive.
 */
export function useTimelineRows(): string[] {
  useFrameVersion();
  const log = usePlayground((state) => state.log);
  const rows = useRef<Rows | null>(null);
  if (rows.current === null || rows.current.log !== log)
    rows.current = { log, scanned: 0, ids: [] };
  const current = rows.current;
  if (current.scanned < log.events.length) {
    const added: string[] = [];
    for (; current.scanned < log.events.length; current.scanned++) {
      const event = log.events[current.scanned];
      if (event === undefined || event.parent !== undefined) continue;
      if (event.type === "result" && isShownElsewhere(log, event)) continue;
      added.push(event.id);
    }
    if (added.length > 0) current.ids = [...current.ids, ...added];
  }
  return current.ids;
}
