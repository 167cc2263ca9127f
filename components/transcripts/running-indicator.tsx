"use client";

import { useEffect } from "react";
import { usePlayground } from "@/state/playground-store";
import { watchActiveRuns } from "@/state/run-client";
import { catchUp, refreshTranscript } from "@/state/transcript-pages";
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
 * Keeps the running marks current, and follows a run that starts, in another tab, on the
 * conversation open here. Mounted with the page, not the sidebar: with the sidebar hidden (at
 * 1024 px and below it is a drawer, shut) a run started elsewhere on the open conversation was
 * never followed.
 *
 * A run made elsewhere that began and ended between two polls is never seen running: its
 * records are read when the user comes back to this tab or window (shown or focused again).
 * So is a conversation whose stored copy could not be read when its run here ended (the server
 * was down): the header and Export come back once the server answers again.
 */
export function useActiveRuns(): void {
  useEffect(() => watchActiveRuns((id) => void openTranscript(id, false)), []);
  useEffect(() => {
    const onReturn = () => {
      if (document.visibilityState !== "visible") return;
      const { transcript, transcriptId, status } = usePlayground.getState();
      if (transcriptId === null) return;
      if (transcript?.meta.id === transcriptId) void catchUp(transcript);
      // Only after a run that failed here: a conversation still opening has its own reads.
      else if (transcript === null && status === "failed") void refreshTranscript(transcriptId);
    };
    document.addEventListener("visibilitychange", onReturn);
    window.addEventListener("focus", onReturn);
    return () => {
      document.removeEventListener("visibilitychange", onReturn);
      window.removeEventListener("focus", onReturn);
    };
  }, []);
}
