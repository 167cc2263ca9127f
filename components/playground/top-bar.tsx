"use client";

import { useShallow } from "zustand/react/shallow";
import { ModelPicker } from "@/components/chat/model-picker";
import { SettingsButton } from "@/components/chat/settings-drawer";
import { ConnectButton } from "@/components/connect/connect-panel";
import { DialectSwitch } from "@/components/dialects/dialect-switch";
import { SidebarIcon } from "@/components/transcripts/icons";
import { newConversation } from "@/components/transcripts/navigation";
import type { Layout } from "@/lib/client/layout";
import { usePlayground } from "@/state/playground-store";
import { chooseTheme } from "@/state/preferences";
import { panelShown, toggleDebug, toggleSidebar } from "./use-layout";

/** Dialect, model, new conversation, debug panel and theme: the controls a user reaches for. */
export function TopBar({ layout }: { layout: Layout }) {
  const status = usePlayground((state) => state.status);
  const theme = usePlayground((state) => state.theme);
  const transcriptId = usePlayground((state) => state.transcriptId);
  const setUi = usePlayground((state) => state.setUi);
  const panels = usePlayground(
    useShallow((state) => ({
      sidebarOpen: state.sidebarOpen,
      debugOpen: state.debugOpen,
      drawer: state.drawer,
    })),
  );
  const busy = status === "running" || status === "stopping";
  const sidebarShown = panelShown("sidebar", layout, panels);
  const debugShown = panelShown("debug", layout, panels);

  return (
    <header className="flex h-11 shrink-0 items-center gap-2 border-b border-border bg-surface px-3 lg:gap-3">
      <button
        type="button"
        className={`${BUTTON} -ml-1 px-1.5`}
        aria-label="Transcripts"
        aria-pressed={sidebarShown}
        title={`${sidebarShown ? "Hide" : "Show"} saved transcripts (T)`}
        onClick={toggleSidebar}
      >
        <SidebarIcon />
      </button>
      <div className="flex shrink-0 items-center gap-2">
        {/* biome-ignore lint/performance/noImgElement: a static SVG mark */}
        <img src="/favicon.svg" alt="" width={18} height={18} />
        <span className="hidden font-mono text-xs tracking-wide text-fg-muted lg:inline">
          wirescope
        </span>
      </div>
      <DialectSwitch disabled={busy} />
      <ModelPicker disabled={busy} />
      <SettingsButton />
      <div className="ml-auto flex shrink-0 items-center gap-1">
        {transcriptId !== null ? (
          <span
            className="mr-2 hidden font-mono text-[11px] text-fg-subtle xl:inline"
            title="Transcript id"
          >
            {transcriptId.slice(0, 8)}
          </span>
        ) : null}
        <button
          type="button"
          className={BUTTON}
          // As N and the sidebar's +: a new history entry, so Back returns to the conversation.
          onClick={newConversation}
          disabled={busy}
          title="New conversation (N)"
        >
          New
        </button>
        <ConnectButton className={BUTTON} />
        <button
          type="button"
          className={BUTTON}
          aria-pressed={debugShown}
          title={`${debugShown ? "Hide" : "Show"} the debug panel (D)`}
          onClick={toggleDebug}
        >
          Debug
        </button>
        <button
          type="button"
          className={BUTTON}
          aria-label={`Switch to the ${theme === "dark" ? "light" : "dark"} theme`}
          onClick={() => chooseTheme(theme === "dark" ? "light" : "dark")}
        >
          {theme === "dark" ? "Light" : "Dark"}
        </button>
        <button
          type="button"
          className={`${BUTTON} font-mono`}
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          onClick={() => setUi({ helpOpen: true })}
        >
          ?
        </button>
      </div>
    </header>
  );
}

export const BUTTON =
  "rounded px-2 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg disabled:opacity-40 aria-pressed:bg-surface-2 aria-pressed:text-fg";
