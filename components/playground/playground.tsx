"use client";

import { useEffect } from "react";
import { Composer } from "@/components/chat/composer";
import { DebugPanel } from "@/components/debug/debug-panel";
import { Timeline } from "@/components/timeline/timeline";
import { DropZone } from "@/components/transcripts/drop-zone";
import { ForkMenu } from "@/components/transcripts/fork-menu";
import { NoticeToast } from "@/components/transcripts/notice-toast";
import { Sidebar } from "@/components/transcripts/sidebar";
import { TranscriptHeader } from "@/components/transcripts/transcript-header";
import { UrlSync } from "@/components/transcripts/url-sync";
import { usePlayground } from "@/state/playground-store";
import { Splitter } from "./splitter";
import { TopBar } from "./top-bar";

/**
 * The playground: saved transcripts on the left, the conversation and its timeline (with the
 * open transcript's replay bar) in the middle, the debug panel on the right. `transcriptId`
 * comes from a transcript's own URL (`/t/<id>`).
 */
export function Playground({ transcriptId }: { transcriptId?: string } = {}) {
  const debugOpen = usePlayground((state) => state.debugOpen);
  const debugWidth = usePlayground((state) => state.debugWidth);
  const theme = usePlayground((state) => state.theme);
  const sidebarOpen = usePlayground((state) => state.sidebarOpen);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  return (
    <div className="flex h-dvh flex-col overflow-hidden">
      <TopBar />
      <div className="flex min-h-0 flex-1">
        {sidebarOpen ? <Sidebar /> : null}
        <main className="flex min-w-0 flex-1 flex-col" aria-label="Conversation">
          <TranscriptHeader />
          <ForkMenu>
            <Timeline />
          </ForkMenu>
          <Composer />
        </main>
        {debugOpen ? (
          <>
            <Splitter />
            <aside
              className="flex min-w-0 shrink-0 flex-col border-l border-border bg-surface"
              style={{ width: debugWidth }}
              aria-label="Debug panel"
            >
              <DebugPanel />
            </aside>
          </>
        ) : null}
      </div>
      <UrlSync initialId={transcriptId} />
      <DropZone />
      <NoticeToast />
    </div>
  );
}
