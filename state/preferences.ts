"use client";

import {
  PREFERENCES_KEY,
  type Preferences,
  parsePreferences,
  serializePreferences,
} from "@/lib/client/preferences";
import { DIALECTS, type Dialect } from "@/lib/protocol";
import { type PlaygroundState, type Theme, usePlayground } from "./playground-store";

/**
 * The store ↔ localStorage adapter: `restorePreferences` puts what was saved into the store
 * (once, right after hydration), `keepPreferences` saves what the user changes and keeps the
 * page's theme in step (following the OS while the user has not chosen).
 */

function read(): Preferences {
  try {
    return parsePreferences(window.localStorage.getItem(PREFERENCES_KEY));
  } catch {
    return {}; // storage disabled (privacy mode, a sandboxed frame)
  }
}

const isDialect = (value: string | undefined): value is Dialect =>
  DIALECTS.some((dialect) => dialect === value);

/** What the store holds of the saved preferences. */
function pick(state: PlaygroundState): Preferences {
  return {
    dialect: state.dialect,
    provider: state.provider,
    modelId: state.modelId,
    system: state.system,
    tools: state.tools,
    temperature: state.temperature,
    maxOutputTokens: state.maxOutputTokens,
    paceMs: state.paceMs,
    ...(state.themeChoice === null ? {} : { theme: state.themeChoice }),
    debugOpen: state.debugOpen,
    debugTab: state.debugTab,
    debugShare: state.debugShare,
    sidebarOpen: state.sidebarOpen,
    rawWhitespace: state.rawWhitespace,
    draft: state.draft,
    prices: { ...state.prices },
  };
}

const osTheme = (): Theme =>
  window.matchMedia("(prefers-color-scheme: light)").matches ? "light" : "dark";

/** Saved preferences into the store. The theme painted by the boot script is kept as is. */
export function restorePreferences(): void {
  const saved = read();
  const { dialect, theme, ...rest } = saved;
  const state = usePlayground.getState();
  const painted = document.documentElement.dataset.theme === "light" ? "light" : "dark";
  usePlayground.setState({
    ...rest,
    ...(isDialect(dialect) && state.transcriptId === null ? { dialect } : {}),
    themeChoice: theme ?? null,
    theme: theme ?? painted,
  } satisfies Partial<PlaygroundState>);
}

/** Saves on every change of a saved field; paints the theme; follows the OS until chosen. */
export function keepPreferences(): () => void {
  let last = serializePreferences(pick(usePlayground.getState()));
  const unsubscribe = usePlayground.subscribe((state, previous) => {
    if (state.theme !== previous.theme) document.documentElement.dataset.theme = state.theme;
    const next = serializePreferences(pick(state));
    if (next === last) return;
    last = next;
    try {
      window.localStorage.setItem(PREFERENCES_KEY, next);
    } catch {
      // Full or disabled storage: the page works on, it just will not remember.
    }
  });
  const media = window.matchMedia("(prefers-color-scheme: light)");
  const onScheme = () => {
    if (usePlayground.getState().themeChoice === null) usePlayground.setState({ theme: osTheme() });
  };
  media.addEventListener("change", onScheme);
  return () => {
    unsubscribe();
    media.removeEventListener("change", onScheme);
  };
}

/** The theme control: pick one, or `null` to follow the OS again. */
export function chooseTheme(choice: Theme | null): void {
  usePlayground.setState({ themeChoice: choice, theme: choice ?? osTheme() });
}
