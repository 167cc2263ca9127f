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
 * records are read when the user comes back to this tab or window (shown or focused again),
 * and so is the list: a conversation made meanwhile (an agent's quick captured calls through
 * the proxy, a run in another tab) shows in the sidebar then, not only after a reload.
 * After a run here, only the stored copy is read again: it could not be when the run ended if
 * the server was down, and the header and Export come back once the server answers.
 */
export function useActiveRuns(): void {
  useEffect(() => watchActiveRuns((id) => void openTranscript(id, false)), []);
  useEffect(() => {
    const onReturn = () => {
      if (document.visibilityState !== "visible") return;
      const { transcript, transcriptId, status, log, refreshList } = usePlayground.getState();
      refreshList();
      if (transcriptId === null || status === "running" || status === "stopping") return;
      if (transcript === null || transcript.meta.id !== transcriptId) {
        // A new conversation whose first run broke off here: read it. (One still opening has
        // its own reads.)
        if (status === "failed") void refreshTranscript(transcriptId);
        return;
      }
      // The stored copy lags the view after a run here whose end could not be read back (the
      // server was down) or is being read: only the copy (the header, Export) is read again,
      // so nothing is folded into the view twice. Otherwise what was stored since is shown.
      const lags = log.runId !== null && !transcript.records.some((r) => r.runId === log.runId);
      void (lags ? refreshTranscript(transcriptId) : catchUp(transcript));
    };
    document.addEventListener("visibilitychange", onReturn);
    window.addEventListener("focus", onReturn);
    return () => {
      document.removeEventListener("visibilitychange", onReturn);
      window.removeEventListener("focus", onReturn);
    };
  }, []);
}
