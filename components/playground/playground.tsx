"use client";

import { useEffect } from "react";
import { Composer } from "@/components/chat/composer";
import { DebugPanel } from "@/components/debug/debug-panel";
import { Timeline } from "@/components/timeline/timeline";
import { usePlayground } from "@/state/playground-store";
import { Splitter } from "./splitter";
import { TopBar } from "./top-bar";

/** The playground: conversation and timeline on the left, the debug panel on the right. */
export function Playground() {
  const debugOpen = usePlayground((state) => state.debugOpen);
  const debugWidth = usePlayground((state) => state.debugWidth);
  const theme = usePlayground((state) => state.theme);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  return (
    <div className="flex h-dvh flex-col overflow-hidden">
      <TopBar />
      <div className="flex min-h-0 flex-1">
        <main className="flex min-w-0 flex-1 flex-col" aria-label="Conversation">
          <Timeline />
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
    </div>
  );
}
