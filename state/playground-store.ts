"use client";

import { create, type StateCreator } from "zustand";
import { DEFAULT_DEBUG_SHARE } from "@/lib/client/layout";
import { RunLog } from "@/lib/client/run-log";
import type { RunStreamRecord } from "@/lib/client/run-stream";
import type { Price } from "@/lib/cost";
import type { Dialect, DialectDefinition, EventType } from "@/lib/protocol";
import type { TranscriptRecord } from "@/lib/protocol/records";
import type { StoredRecord, TranscriptMeta } from "@/lib/store/store";

/** What the next run is sent with. `system: null` means the dialect's default prompt. */
export interface SettingsSlice {
  dialect: Dialect;
  /** A user-defined dialect the next run is sent with (docs/dialects/custom.md); `dialect` is then its family's built-in. */
  definition: DialectDefinition | null;
  provider: string;
  modelId: string;
  system: string | null;
  /** Tool names that are on; null means every tool the server offers. */
  tools: string[] | null;
  temperature: number | null;
  maxOutputTokens: number | null;
  /** The demo model's pace between pieces, ms. */
  paceMs: number;
  /** The user's price overrides (`lib/cost`), keyed `provider/model`. */
  prices: Readonly<Record<string, Price>>;
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
  /** Runs in progress on the server, in any tab: transcript id → run id (the sidebar marks them). */
  activeRuns: Readonly<Record<string, string>>;
  beginRun(): void;
  /** Shows a run in progress on the log as it is (the stored records of the transcript). */
  resumeRun(): void;
  setActiveRuns(runs: Readonly<Record<string, string>>): void;
  applyRecord(record: RunStreamRecord): void;
  endRun(status: RunStatus, failure?: string | null): void;
  setStatus(status: RunStatus): void;
  newConversation(): void;
}

export type DebugTab = "raw" | "events" | "chunks" | "request";
export type Theme = "dark" | "light";
/** A side panel shown over the conversation (narrow windows); one at a time. */
export type Drawer = "sidebar" | "debug";

export interface UiSlice {
  /** The event under the pointer (timeline or raw view). */
  hoveredId: string | null;
  /** The event picked by a click; the debug panel follows it. */
  selectedId: string | null;
  /** A model turn picked in the timeline or raw view. */
  selectedTurn: number | null;
  debugOpen: boolean;
  debugTab: DebugTab;
  /** The debug panel's width as a share of the window (`lib/client/layout` bounds it). */
  debugShare: number;
  eventFilter: EventType[] | null;
  /** The theme painted now. */
  theme: Theme;
  /** Internal ids (call ids, error call ids) on the timeline's cards; off by default. */
  showIds: boolean;
  /** Raw draws spaces, tabs and line breaks as symbols; off by default. */
  rawWhitespace: boolean;
  /** The user's pick; null follows the OS colour scheme. */
  themeChoice: Theme | null;
  /** The drawer open over the conversation on a narrow window, if any. */
  drawer: Drawer | null;
  /** The keyboard shortcuts overlay. */
  helpOpen: boolean;
  /** What is typed in the composer and not sent yet. */
  draft: string;
  hover(id: string | null): void;
  select(id: string | null, turn?: number | null): void;
  setUi(
    patch: Partial<
      Pick<
        UiSlice,
        | "debugOpen"
        | "debugTab"
        | "debugShare"
        | "eventFilter"
        | "theme"
        | "themeChoice"
        | "selectedTurn"
        | "drawer"
        | "helpOpen"
        | "draft"
        | "showIds"
        | "rawWhitespace"
      >
    >,
  ): void;
}

/** A saved transcript as `GET /api/transcripts/:id` returns it. */
export interface OpenTranscript {
  meta: TranscriptMeta;
  /**
   * The records loaded so far: the transcript's last ones, from a whole model turn on
   * (`lib/client/record-pages`). Older ones load as the user scrolls up, or all of them when
   * replay needs them; `records[0].seq === 1` when nothing is left out.
   */
  records: StoredRecord[];
  /** Every record of the transcript (the last `seq`), loaded or not. */
  recordCount?: number;
  /** Set when it came from a file: the file's own id, and its parent when not stored here. */
  importedFrom?: {
    originalId: string;
    importedAt: number;
    parentId?: string;
    forkPoint?: number;
    /** A raw text import: no id in the file; how its dialect was chosen. */
    format?: "text";
    dialect?: { dialect: string; by: "query" | "detected" | "fallback"; reason: string };
  };
}

/** A short message at the bottom of the page, with an optional action ("Undo"). */
export interface Notice {
  id: number;
  text: string;
  tone: "info" | "danger";
  action?: { label: string; run(): void };
}

/** Saved transcripts: the one opened (its stored records, for replay, forks and export). */
export interface TranscriptSlice {
  transcript: OpenTranscript | null;
  /** Bumped when the saved list may have changed (a run ended, an import, a rename). */
  listVersion: number;
  sidebarOpen: boolean;
  /** The log shows a replay (part of the records, re-parsed), not the stored transcript. */
  replaying: boolean;
  notice: Notice | null;
  /** Older records of the open transcript are being read and folded. */
  olderLoading: boolean;
  /** A saved transcript being read to be shown (`openTranscript` in navigation.ts), or null. */
  opening: string | null;
  setOpening(id: string | null): void;
  /** Shows a stored transcript: its records folded into a fresh log; the composer continues it. */
  openTranscript(transcript: OpenTranscript): void;
  /** Updates the stored copy (after a run added to it) without touching the log. */
  setTranscript(transcript: OpenTranscript | null): void;
  /**
   * The open transcript with older records in front, and its log folded from all of them
   * (`state/transcript-pages`): selection and hover stay, event ids do not change.
   */
  showOlder(transcript: OpenTranscript, log: RunLog): void;
  setOlderLoading(loading: boolean): void;
  /** Folds records into the log (a fresh one with `reset`): what replay frames do. */
  showRecords(records: readonly TranscriptRecord[], reset: boolean, replaying?: boolean): void;
  /** Shows a replay's log, folded elsewhere (`reset`: a new log, nothing hovered in it). */
  showReplayLog(log: RunLog, reset: boolean): void;
  refreshList(): void;
  notify(notice: Omit<Notice, "id"> | null): void;
  setSidebarOpen(open: boolean): void;
}

export type PlaygroundState = SettingsSlice & RunSlice & UiSlice & TranscriptSlice;

const settingsSlice: StateCreator<PlaygroundState, [], [], SettingsSlice> = (set) => ({
  dialect: "xml",
  definition: null,
  provider: "demo",
  modelId: "scripted",
  system: null,
  tools: null,
  temperature: null,
  maxOutputTokens: null,
  paceMs: 15,
  prices: {},
  setSettings: (patch) => set(patch),
});

const runSlice: StateCreator<PlaygroundState, [], [], RunSlice> = (set, get) => ({
  log: new RunLog(),
  version: 0,
  status: "idle",
  failure: null,
  transcriptId: null,
  activeRuns: {},
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
  resumeRun: () => set({ status: "running", failure: null }),
  setActiveRuns: (activeRuns) => set({ activeRuns }),
  applyRecord(record) {
    const { log, activeRuns, listVersion } = get();
    if (record.kind === "run") {
      log.applyRun(record.transcriptId, record.runId);
      const known = activeRuns[record.transcriptId] === record.runId;
      set({
        transcriptId: record.transcriptId,
        version: log.version,
        // The sidebar shows a new conversation, running, the moment its first record arrives.
        activeRuns: known ? activeRuns : { ...activeRuns, [record.transcriptId]: record.runId },
        listVersion: known ? listVersion : listVersion + 1,
      });
      return;
    }
    // The stream's own notes that it stopped early: the run client attaches again (`dropped`)
    // or ends the run as failed (`deleted`).
    if (record.kind === "dropped" || record.kind === "deleted") return;
    log.apply(record);
    set({ version: log.version });
  },
  endRun: (status, failure = null) =>
    set((state) => ({
      status,
      failure,
      activeRuns: Object.fromEntries(
        Object.entries(state.activeRuns).filter(([, runId]) => runId !== state.log.runId),
      ),
    })),
  setStatus: (status) => set({ status }),
  newConversation: () =>
    set({
      log: new RunLog(),
      version: 0,
      status: "idle",
      failure: null,
      transcriptId: null,
      selectedId: null,
      transcript: null,
      replaying: false,
    }),
});

const uiSlice: StateCreator<PlaygroundState, [], [], UiSlice> = (set) => ({
  hoveredId: null,
  selectedId: null,
  selectedTurn: null,
  debugOpen: true,
  debugTab: "raw",
  debugShare: DEFAULT_DEBUG_SHARE,
  eventFilter: null,
  theme: "dark",
  showIds: false,
  rawWhitespace: false,
  themeChoice: null,
  drawer: null,
  helpOpen: false,
  draft: "",
  hover: (hoveredId) => set({ hoveredId }),
  select: (selectedId, turn = null) =>
    set(turn === null ? { selectedId } : { selectedId, selectedTurn: turn }),
  setUi: (patch) => set(patch),
});

let noticeCount = 0;

const transcriptSlice: StateCreator<PlaygroundState, [], [], TranscriptSlice> = (set, get) => ({
  transcript: null,
  listVersion: 0,
  sidebarOpen: true,
  replaying: false,
  notice: null,
  olderLoading: false,
  opening: null,
  setOpening: (opening) => set({ opening }),
  openTranscript(transcript) {
    const { meta } = transcript;
    const log = foldLog(meta.id, transcript.records);
    // Continuing goes on in the transcript's dialect, with its model (a replay source stays put).
    const model =
      meta.model.provider === "replay"
        ? {}
        : { provider: meta.model.provider, modelId: meta.model.id };
    set({
      transcript,
      log,
      version: log.version,
      transcriptId: meta.id,
      status: "done",
      failure: null,
      selectedId: null,
      hoveredId: null,
      selectedTurn: null,
      replaying: false,
      dialect: meta.dialect,
      definition: meta.definition ?? null,
      ...model,
    });
  },
  setTranscript: (transcript) => set({ transcript }),
  showOlder: (transcript, log) => set({ transcript, log, version: log.version }),
  setOlderLoading: (olderLoading) => set({ olderLoading }),
  showRecords(records, reset, replaying = true) {
    const current = get().log;
    const log = reset ? foldLog(current.transcriptId, []) : current;
    for (const record of records) log.apply(record);
    set({ log, version: log.version, replaying, ...(reset ? { hoveredId: null } : {}) });
  },
  showReplayLog: (log, reset) =>
    set({ log, version: log.version, replaying: true, ...(reset ? { hoveredId: null } : {}) }),
  refreshList: () => set((state) => ({ listVersion: state.listVersion + 1 })),
  notify: (notice) => set({ notice: notice === null ? null : { ...notice, id: ++noticeCount } }),
  setSidebarOpen: (sidebarOpen) => set({ sidebarOpen }),
});

function foldLog(transcriptId: string | null, records: readonly TranscriptRecord[]): RunLog {
  const log = new RunLog();
  log.transcriptId = transcriptId;
  for (const record of records) log.apply(record);
  return log;
}

/** The one playground store, built from typed slices. It folds records; it never parses. */
export const usePlayground = create<PlaygroundState>()((...args) => ({
  ...settingsSlice(...args),
  ...runSlice(...args),
  ...uiSlice(...args),
  ...transcriptSlice(...args),
}));

// The store on `window` for scripted measurements (`npm run bench:ui`) and debugging from the
// console. It holds only what the page already shows — never a key.
if (typeof window !== "undefined") {
  (window as unknown as { __wirescope?: typeof usePlayground }).__wirescope = usePlayground;
}
