"use client";

import { ModelPicker } from "@/components/chat/model-picker";
import { SettingsButton } from "@/components/chat/settings-drawer";
import { ConnectButton } from "@/components/connect/connect-panel";
import { DialectSwitch } from "@/components/dialects/dialect-switch";
import { SidebarIcon } from "@/components/transcripts/icons";
import { usePlayground } from "@/state/playground-store";

/** Dialect, model, new conversation, debug panel and theme: the controls a user reaches for. */
export function TopBar() {
  const status = usePlayground((state) => state.status);
  const debugOpen = usePlayground((state) => state.debugOpen);
  const theme = usePlayground((state) => state.theme);
  const transcriptId = usePlayground((state) => state.transcriptId);
  const setUi = usePlayground((state) => state.setUi);
  const newConversation = usePlayground((state) => state.newConversation);
  const sidebarOpen = usePlayground((state) => state.sidebarOpen);
  const setSidebarOpen = usePlayground((state) => state.setSidebarOpen);
  const busy = status === "running" || status === "stopping";

  return (
    <header className="flex h-11 shrink-0 items-center gap-3 border-b border-border bg-surface px-3">
      <button
        type="button"
        className={`${BUTTON} -ml-1 px-1.5`}
        aria-label="Transcripts"
        aria-pressed={sidebarOpen}
        title={sidebarOpen ? "Hide saved transcripts" : "Show saved transcripts"}
        onClick={() => setSidebarOpen(!sidebarOpen)}
      >
        <SidebarIcon />
      </button>
      <div className="flex items-center gap-2">
        {/* biome-ignore lint/performance/noImgElement: a static SVG mark */}
        <img src="/favicon.svg" alt="" width={18} height={18} />
        <span className="font-mono text-xs tracking-wide text-fg-muted">wirescope</span>
      </div>
      <DialectSwitch disabled={busy} />
      <ModelPicker disabled={busy} />
      <SettingsButton />
      <div className="ml-auto flex items-center gap-1">
        {transcriptId !== null ? (
          <span
            className="mr-2 hidden font-mono text-[11px] text-fg-subtle md:inline"
            title="Transcript id"
          >
            {transcriptId.slice(0, 8)}
          </span>
        ) : null}
        <button type="button" className={BUTTON} onClick={newConversation} disabled={busy}>
          New
        </button>
        <ConnectButton className={BUTTON} />
        <button
          type="button"
          className={BUTTON}
          aria-pressed={debugOpen}
          onClick={() => setUi({ debugOpen: !debugOpen })}
        >
          Debug
        </button>
        <button
          type="button"
          className={BUTTON}
          aria-label={`Switch to the ${theme === "dark" ? "light" : "dark"} theme`}
          onClick={() => setUi({ theme: theme === "dark" ? "light" : "dark" })}
        >
          {theme === "dark" ? "Light" : "Dark"}
        </button>
      </div>
    </header>
  );
}

export const BUTTON =
  "rounded px-2 py-1 text-xs text-fg-muted hover:bg-surface-2 hover:text-fg disabled:opacity-40 aria-pressed:bg-surface-2 aria-pressed:text-fg";
