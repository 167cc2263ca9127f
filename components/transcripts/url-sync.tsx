"use client";

import { createContext, useContext, useEffect, useSyncExternalStore } from "react";
import { usePlayground } from "@/state/playground-store";
import { idFromPath, openTranscript, transcriptPath } from "./navigation";

/** The transcript id of the page's own URL (`/t/<id>`), as the server rendered it. */
export const RouteTranscript = createContext<string | undefined>(undefined);

/**
 * Whether the transcript of the page's URL is still to be opened: from the server's HTML (a
 * slow network can take seconds to run the scripts) until the first open settles, so the page
 * says "Opening the transcript…" throughout instead of showing the blank intro first.
 */
export function useRouteOpening(): boolean {
  const routeId = useContext(RouteTranscript);
  const pending = useSyncExternalStore(
    onRouteOpened,
    () => !routeOpened,
    () => true,
  );
  return routeId !== undefined && pending;
}

let routeOpened = false;
const routeListeners = new Set<() => void>();

function onRouteOpened(listener: () => void): () => void {
  routeListeners.add(listener);
  return () => routeListeners.delete(listener);
}

function settleRoute(): void {
  routeOpened = true;
  for (const listener of routeListeners) listener();
}

/**
 * Keeps the address bar and the store in step: `/t/<id>` opens that transcript (on load and
 * on back/forward), and the URL follows the store's transcript (a live run's new transcript,
 * a fork, "New"), so a reload comes back to the same conversation.
 */
export function UrlSync({ initialId }: { initialId?: string | undefined }) {
  useEffect(() => {
    if (initialId === undefined) settleRoute();
    else void openTranscript(initialId, false).finally(settleRoute);
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
