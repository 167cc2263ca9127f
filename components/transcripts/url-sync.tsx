"use client";

import { useEffect } from "react";
import { usePlayground } from "@/state/playground-store";
import { idFromPath, openTranscript, transcriptPath } from "./navigation";

/**
 * Keeps the address bar and the store in step: `/t/<id>` opens that transcript (on load and
 * on back/forward), and the URL follows the store's transcript (a live run's new transcript,
 * a fork, "New"), so a reload comes back to the same conversation.
 */
export function UrlSync({ initialId }: { initialId?: string | undefined }) {
  useEffect(() => {
    if (initialId !== undefined) void openTranscript(initialId, false);
  }, [initialId]);

  useEffect(
    () =>
      usePlayground.subscribe((state, previous) => {
        if (state.transcriptId === previous.transcriptId) return;
        const path = state.transcriptId === null ? "/" : transcriptPath(state.transcriptId);
        if (window.location.pathname !== path) window.history.replaceState(null, "", path);
      }),
    [],
  );

  useEffect(() => {
    const onPop = () => {
      const id = idFromPath(window.location.pathname);
      const state = usePlayground.getState();
      if (id === state.transcriptId) return;
      if (id === null) state.newConversation();
      else void openTranscript(id, false);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  return null;
}
