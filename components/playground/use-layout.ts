"use client";

import { useSyncExternalStore } from "react";
import { type Layout, planLayout } from "@/lib/client/layout";
import { usePlayground } from "@/state/playground-store";

/** Before hydration the server has no window: plan for a common laptop width. */
const SERVER_WIDTH = 1440;

const subscribe = (onChange: () => void) => {
  window.addEventListener("resize", onChange);
  return () => window.removeEventListener("resize", onChange);
};

/** The window's width, re-rendering on resize. */
export function useWindowWidth(): number {
  return useSyncExternalStore(
    subscribe,
    () => window.innerWidth,
    () => SERVER_WIDTH,
  );
}

/** Where the sidebar and the debug panel go at the current width (see `lib/client/layout`). */
export function useLayout(): Layout {
  const width = useWindowWidth();
  const debugShare = usePlayground((state) => state.debugShare);
  const sidebarOpen = usePlayground((state) => state.sidebarOpen);
  return planLayout({ width, debugShare, sidebarOpen });
}

function currentLayout(): Layout {
  const { debugShare, sidebarOpen } = usePlayground.getState();
  return planLayout({ width: window.innerWidth, debugShare, sidebarOpen });
}

/** Shows or hides the transcripts: beside the conversation when it fits, else as a drawer. */
export function toggleSidebar(): void {
  const state = usePlayground.getState();
  if (currentLayout().sidebar === "inline") {
    state.setSidebarOpen(!state.sidebarOpen);
    state.setUi({ drawer: null });
  } else state.setUi({ drawer: state.drawer === "sidebar" ? null : "sidebar" });
}

/** Shows or hides the debug panel: beside the conversation when it fits, else as a drawer. */
export function toggleDebug(): void {
  const state = usePlayground.getState();
  if (currentLayout().debug === "inline")
    state.setUi({ debugOpen: !state.debugOpen, drawer: null });
  else state.setUi({ drawer: state.drawer === "debug" ? null : "debug" });
}

/** Is the panel on screen now (inline and open, or its drawer open)? */
export function panelShown(
  panel: "sidebar" | "debug",
  layout: Layout,
  state: {
    sidebarOpen: boolean;
    debugOpen: boolean;
    drawer: string | null;
  },
): boolean {
  if (layout[panel] === "drawer") return state.drawer === panel;
  return panel === "sidebar" ? state.sidebarOpen : state.debugOpen;
}
