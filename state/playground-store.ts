"use client";

import { create, type StateCreator } from "zustand";
import { RunLog } from "@/lib/client/run-log";
import type { RunStreamRecord } from "@/lib/client/run-stream";
import type { Dialect, EventType } from "@/lib/protocol";

/** What the next run is sent with. `system: null` means the dialect's default prompt. */
export interface SettingsSlice {
  dialect: Dialect;
  provider: string;
  modelId: string;
  system: string | null;
  /** Tool names that are on; null means every tool the server offers. */
  tools: string[] | null;
  temperature: number | null;
  maxOutputTokens: number | null;
  /** The demo model's pace between pieces, ms. */
  paceMs: number;
  setSettings(patch: Partial<Omit<SettingsSlice, "setSettings">>): void;
}

export type RunStatus = "idle" | "running" | "stopping" | "done" | "failed";

/** The current run: a `RunLog` folded from the records the server sends. */
export interface RunSlice {
  log: RunLog;
  /** Changes whenever `log` does; select it to re-render on new records. */
  version: number;
  status: RunStatus;
  /** A request-level failure (4xx/5xx, network), shown above the composer. */
  failure: string | null;
  transcriptId: string | null;
  beginRun(): void;
  applyRecord(record: RunStreamRecord): void;
  endRun(status: RunStatus, failure?: string | null): void;
  setStatus(status: RunStatus): void;
  newConversation(): void;
}

export type DebugTab = "raw" | "events" | "chunks" | "request";
export type Theme = "dark" | "light";

export interface UiSlice {
  /** The event under the pointer (timeline or raw view). */
  hoveredId: string | null;
  /** The event picked by a click; the debug panel follows it. */
  selectedId: string | null;
  /** A model turn picked in the timeline or raw view. */
  selectedTurn: number | null;
  debugOpen: boolean;
  debugTab: DebugTab;
  debugWidth: number;
  eventFilter: EventType[] | null;
  theme: Theme;
  hover(id: string | null): void;
  select(id: string | null, turn?: number | null): void;
  setUi(
    patch: Partial<
      Pick<
        UiSlice,
        "debugOpen" | "debugTab" | "debugWidth" | "eventFilter" | "theme" | "selectedTurn"
      >
    >,
  ): void;
}

export type PlaygroundState = SettingsSlice & RunSlice & UiSlice;

const settingsSlice: StateCreator<PlaygroundState, [], [], SettingsSlice> = (set) => ({
  dialect: "xml",
  provider: "demo",
  modelId: "scripted",
  system: null,
  tools: null,
  temperature: null,
  maxOutputTokens: null,
  paceMs: 15,
  setSettings: (patch) => set(patch),
});

const runSlice: StateCreator<PlaygroundState, [], [], RunSlice> = (set, get) => ({
  log: new RunLog(),
  version: 0,
  status: "idle",
  failure: null,
  transcriptId: null,
  // A conversation keeps its log: each run's records are appended (turn numbers continue).
  beginRun: () =>
    set((state) => {
      const log = state.transcriptId === null ? new RunLog() : state.log;
      return {
        log,
        version: log.version,
        status: "running",
        failure: null,
        selectedId: null,
        hoveredId: null,
      };
    }),
  applyRecord(record) {
    const { log } = get();
    if (record.kind === "run") {
      log.applyRun(record.transcriptId, record.runId);
      set({ transcriptId: record.transcriptId, version: log.version });
      return;
    }
    log.apply(record);
    set({ version: log.version });
  },
  endRun: (status, failure = null) => set({ status, failure }),
  setStatus: (status) => set({ status }),
  newConversation: () =>
    set({
      log: new RunLog(),
      version: 0,
      status: "idle",
      failure: null,
      transcriptId: null,
      selectedId: null,
    }),
});

const uiSlice: StateCreator<PlaygroundState, [], [], UiSlice> = (set) => ({
  hoveredId: null,
  selectedId: null,
  selectedTurn: null,
  debugOpen: true,
  debugTab: "raw",
  debugWidth: 520,
  eventFilter: null,
  theme: "dark",
  hover: (hoveredId) => set({ hoveredId }),
  select: (selectedId, turn = null) =>
    set(turn === null ? { selectedId } : { selectedId, selectedTurn: turn }),
  setUi: (patch) => set(patch),
});

/** The one playground store, built from typed slices (STYLE 11). It folds records; it never parses. */
export const usePlayground = create<PlaygroundState>()((...args) => ({
  ...settingsSlice(...args),
  ...runSlice(...args),
  ...uiSlice(...args),
}));
