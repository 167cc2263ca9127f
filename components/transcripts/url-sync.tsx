"use client";

import { createContext, useContext, useEffect, useSyncExternalStore } from "react";
import { usePlayground } from "@/state/playground-store";
import {
  cancelOpen,
  idFromPath,
  newConversation,
  openTranscript,
  transcriptPath,
} from "./navigation";
import { onRouteSettled, routePending, settleRoute } from "./route-opening";

/** The transcript id of the page's own URL (`/t/<id>`), as the server rendered it. */
export const RouteTranscript = createContext<string | undefined>(undefined);

/**
 * Whether the transcript of the page's URL is still to be opened (`route-opening.ts`), so the
 * page says "Opening the transcript…" from the server's HTML on (a slow network can take
 * seconds to run the scripts) instead of showing the blank intro first.
 */
export function useRouteOpening(): boolean {
  const routeId = useContext(RouteTranscript);
  const pending = useSyncExternalStore(onRouteSettled, routePending, () => true);
  return routeId !== undefined && pending;
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
    // Through the navigation's own steps, so a read still going (a click before Back) is
    // dropped rather than shown over the page Back went to.
    const onPop = () => {
      const id = idFromPath(window.location.pathname);
      if (id === usePlayground.getState().transcriptId) cancelOpen();
      else if (id === null) newConversation();
      else void openTranscript(id, false);
    };
    window.addEventListener("popstate", onPop);
    return () => window.removeEventListener("popstate", onPop);
  }, []);

  return null;
}
