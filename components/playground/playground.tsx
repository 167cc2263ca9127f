"use client";

import "@/lib/client/zod-jitless";
import { useEffect, useLayoutEffect } from "react";
import { Composer } from "@/components/chat/composer";
import { DebugPanel } from "@/components/debug/debug-panel";
import { RunSummaryBar } from "@/components/metrics/run-summary";
import { Shortcuts } from "@/components/shortcuts/shortcuts";
import { ShortcutsHelp } from "@/components/shortcuts/shortcuts-help";
import { Timeline } from "@/components/timeline/timeline";
import { DropZone } from "@/components/transcripts/drop-zone";
import { ForkMenu } from "@/components/transcripts/fork-menu";
import { NoticeToast } from "@/components/transcripts/notice-toast";
import { useActiveRuns } from "@/components/transcripts/running-indicator";
import { Sidebar } from "@/components/transcripts/sidebar";
import { TranscriptHeader } from "@/components/transcripts/transcript-header";
import { RouteTranscript, UrlSync } from "@/components/transcripts/url-sync";
import { usePlayground } from "@/state/playground-store";
import { keepPreferences, restorePreferences } from "@/state/preferences";
import { Drawer } from "./drawer";
import { SettingsProblems } from "./settings-problems";
import { Splitter } from "./splitter";
import { TopBar } from "./top-bar";
import { useLayout } from "./use-layout";

/**
 * The playground: saved transcripts on the left, the conversation and its timeline (with the
 * open transcript's replay bar) in the middle, the debug panel on the right. On a narrow
 * window the side panels become drawers over the conversation (`lib/client/layout`).
 * `transcriptId` comes from a transcript's own URL (`/t/<id>`).
 */
export function Playground({ transcriptId }: { transcriptId?: string } = {}) {
  const layout = useLayout();
  const debugOpen = usePlayground((state) => state.debugOpen);
  const sidebarOpen = usePlayground((state) => state.sidebarOpen);
  const drawer = usePlayground((state) => state.drawer);
  const closeDrawer = () => usePlayground.getState().setUi({ drawer: null });
  useActiveRuns();

  // Before the first paint after hydration: the saved preferences, then saving changes.
  useLayoutEffect(() => {
    restorePreferences();
    return keepPreferences();
  }, []);

  // A drawer left open when the window grows gives way to the inline panel (and stays shut
  // if the window narrows again).
  useEffect(() => {
    if (drawer !== null && layout[drawer] === "inline")
      usePlayground.getState().setUi({ drawer: null });
  }, [drawer, layout]);
  const sidebarDrawer = drawer === "sidebar" && layout.sidebar === "drawer";
  const debugDrawer = drawer === "debug" && layout.debug === "drawer";
  // What a drawer dims is out of reach while it is open: Tab went on from the drawer into
  // the buttons and cards under the dimmed layer. The top bar stays usable (it closes it).
  const underDrawer = sidebarDrawer || debugDrawer;

  return (
    <RouteTranscript value={transcriptId}>
      <div className="flex h-dvh flex-col overflow-hidden">
        <a
          href="#composer"
          className="sr-only z-50 rounded bg-accent px-3 py-1.5 text-sm text-accent-fg focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to the message box
        </a>
        <TopBar layout={layout} />
        <SettingsProblems />
        <div className="relative flex min-h-0 flex-1">
          {sidebarOpen && layout.sidebar === "inline" ? (
            // Named for the styles that fit the server's layout to a narrow window until the
            // page has hydrated (app/globals.css).
            <div className="contents" data-server-inline="sidebar">
              <Sidebar />
            </div>
          ) : null}
          <main
            className="flex min-w-0 flex-1 flex-col"
            aria-label="Conversation"
            inert={underDrawer}
          >
            <TranscriptHeader />
            <RunSummaryBar />
            <ForkMenu>
              <Timeline />
            </ForkMenu>
            <Composer />
          </main>
          {debugOpen && layout.debug === "inline" ? (
            <div className="contents" inert={underDrawer} data-server-inline="debug">
              <Splitter width={layout.debugWidth} />
              <aside
                className="flex min-w-0 shrink-0 flex-col border-l border-border bg-surface"
                style={{ width: layout.debugWidth }}
                aria-label="Debug panel"
                data-testid="debug-region"
              >
                <DebugPanel />
              </aside>
            </div>
          ) : null}
          {sidebarDrawer ? (
            <Drawer side="left" label="Transcripts" titled={false} onClose={closeDrawer}>
              <Sidebar />
            </Drawer>
          ) : null}
          {debugDrawer ? (
            <Drawer
              side="right"
              label="Debug panel"
              width={layout.debugWidth}
              onClose={closeDrawer}
            >
              <DebugPanel />
            </Drawer>
          ) : null}
        </div>
        <UrlSync initialId={transcriptId} />
        <DropZone />
        <NoticeToast />
        <Shortcuts />
        <ShortcutsHelp />
      </div>
    </RouteTranscript>
  );
}
