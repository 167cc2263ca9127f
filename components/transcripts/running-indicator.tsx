"use client";

import { useEffect } from "react";
import { usePlayground } from "@/state/playground-store";
import { watchActiveRuns } from "@/state/run-client";
import { openTranscript } from "./navigation";

/** A pulsing dot on a conversation with a run in progress (in this tab or any other). */
export function RunningIndicator({ transcriptId }: { transcriptId: string }) {
  const running = usePlayground((state) => state.activeRuns[transcriptId] !== undefined);
  if (!running) return null;
  return (
    <span
      role="img"
      aria-label="Running"
      title="A run is in progress"
      data-testid="running-indicator"
      className="relative inline-flex size-2 shrink-0 items-center justify-center"
    >
      <span className="absolute inline-flex size-full animate-ping rounded-full bg-accent opacity-60 motion-reduce:animate-none" />
      <span className="relative inline-flex size-1.5 rounded-full bg-accent" />
    </span>
  );
}

/**
 * Keeps the running marks current while the sidebar is shown, and follows a run that starts,
 * in another tab, on the conversation open here.
 */
export function useActiveRuns(): void {
  useEffect(() => watchActiveRuns((id) => void openTranscript(id, false)), []);
}
