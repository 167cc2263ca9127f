"use client";

import { eventsUrl, followRun } from "@/lib/client/follow-run";
import type { DialectDefinition } from "@/lib/protocol";
import { usePlayground } from "./playground-store";
import { useRunConnection } from "./run-connection";
import { refreshTranscript } from "./transcript-pages";

/**
 * Starts a run with the current settings and streams its records into the store. Resolves
 * when the run's stream ends. A refused request (4xx) or a dropped connection becomes a
 * visible failure; nothing is retried behind the user's back. A message the server never
 * took (refused, or the server unreachable) goes back into the composer when it is empty,
 * so the user can fix what was refused and send it again instead of typing it anew.
 */
export async function sendMessage(message: string): Promise<void> {
  const state = usePlayground.getState();
  if (state.status === "running" || state.status === "stopping") return;
  const body = {
    message,
    dialect: state.definition ?? state.dialect,
    model: { provider: state.provider, id: state.modelId, settings: runSettings() },
    ...(state.transcriptId === null ? {} : { transcriptId: state.transcriptId }),
    ...(state.system === null ? {} : { system: state.system }),
    ...(state.tools === null ? {} : { tools: state.tools }),
  };
  await streamRun(body, (refusal) => {
    const now = usePlayground.getState();
    const gone = refusal?.status === 404 && refusal.error?.startsWith("transcriptId:") === true;
    if (gone && body.transcriptId !== undefined && now.transcriptId === body.transcriptId)
      leaveDeletedConversation();
    if (usePlayground.getState().draft === "") usePlayground.getState().setUi({ draft: message });
  });
}

/**
 * The open conversation was deleted elsewhere (another tab, the API) while this page sat on
 * it: a message sent to it is refused (404), and would be again. The page moves on to a new
 * conversation, as it does when it sees the delete during a run, and says why.
 */
function leaveDeletedConversation(): void {
  const state = usePlayground.getState();
  if (window.location.pathname !== "/") window.history.pushState(null, "", "/");
  state.newConversation();
  state.refreshList();
  state.notify({
    text: "This conversation was deleted elsewhere. Your message is back in the box: send it to start a new conversation.",
    tone: "info",
  });
}

/** The call settings of the settings drawer, for any run the page starts. */
export function runSettings(): Record<string, number> {
  const state = usePlayground.getState();
  const settings: Record<string, number> = { paceMs: state.paceMs };
  if (state.temperature !== null) settings.temperature = state.temperature;
  if (state.maxOutputTokens !== null) settings.maxOutputTokens = state.maxOutputTokens;
  return settings;
}

/** A `POST /api/runs` body (docs/http-api.md; see `app/api/runs/schema.ts`). */
export interface RunBody {
  message?: string;
  /** A built-in dialect's name, or a user-defined definition sent inline. */
  dialect: string | DialectDefinition;
  model?: { provider: string; id?: string; settings?: Record<string, number> };
  transcriptId?: string;
  system?: string;
  tools?: string[];
}

/**
 * Starts a run with `body` and folds its records into the store: a message, a fork's
 * `continueWith`, a regression run. Resolves with the run's transcript id when the run ends
 * (null when it was refused; `onRefused` is called then, with the answer's status and error
 * when there was an answer). A dropped connection attaches again
 * from the records it has (the run goes on on the server). Afterwards the stored transcript
 * and the list are reloaded.
 */
export async function streamRun(
  body: RunBody,
  onRefused: (refusal?: { status: number; error?: string }) => void = () => {},
): Promise<string | null> {
  const state = usePlayground.getState();
  if (state.status === "running" || state.status === "stopping") return null;
  // A replay shows part of the records: a conversation continues from all of them.
  if (state.replaying && state.transcript !== null)
    state.showRecords(state.transcript.records, true, false);
  usePlayground.getState().beginRun();
  let first: Response;
  try {
    first = await fetch("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    usePlayground.getState().endRun("failed", `The connection to the server failed: ${message}`);
    onRefused();
    return null;
  }
  if (!first.ok) {
    const error = (await first.json().catch(() => ({}))) as { error?: string };
    usePlayground
      .getState()
      .endRun("failed", error.error ?? `The server answered ${first.status}.`);
    onRefused({
      status: first.status,
      ...(error.error === undefined ? {} : { error: error.error }),
    });
    return null;
  }
  return follow(first, 0);
}

/**
 * Shows a run in progress from the `after` records the page already has (a reload, another
 * tab's run, a conversation opened while it runs) and follows it to its end.
 */
export async function attachRun(runId: string, after: number): Promise<string | null> {
  const state = usePlayground.getState();
  if (state.status === "running" || state.status === "stopping") return null;
  usePlayground.getState().resumeRun();
  const first = await fetch(eventsUrl(runId, after)).catch(() => null);
  if (first === null) {
    usePlayground.getState().endRun("failed", "The connection to the server failed.");
    return null;
  }
  return follow(first, after);
}

async function follow(first: Response, after: number): Promise<string | null> {
  const outcome = await followRun(first, after, {
    fetch: (url, init) => fetch(url, init),
    onRecord: (record) => usePlayground.getState().applyRecord(record),
    wait: (attempt) => new Promise((resolve) => setTimeout(resolve, 250 * attempt)),
    onCut: (cut) => useRunConnection.setState({ cut }),
  });
  useRunConnection.setState({ cut: null });
  const state = usePlayground.getState();
  if (outcome.kind === "deleted") {
    // Deleted in another tab, say: the page moves on to a new conversation, as it does for a
    // delete here (a message sent to the deleted one would only be refused), and says why.
    // Deleted here, it has moved on already and is left as it is.
    if (state.log.runId === outcome.runId) {
      state.endRun("idle");
      if (window.location.pathname !== "/") window.history.pushState(null, "", "/");
      state.newConversation();
      state.notify({
        text: "This conversation was deleted, and its run was stopped.",
        tone: "info",
      });
    }
    state.refreshList();
    return null;
  }
  if (outcome.kind === "failed") state.endRun("failed", outcome.message);
  else state.endRun("done");
  const transcriptId = usePlayground.getState().transcriptId;
  if (transcriptId !== null) await reloadTranscript(transcriptId);
  return transcriptId;
}

/** Brings the stored copy of the current transcript (for replay, forks) up to date and refreshes the list. */
async function reloadTranscript(id: string): Promise<void> {
  usePlayground.getState().refreshList();
  await refreshTranscript(id);
}

/** Asks the server to interrupt the run; its stream then carries the `interrupt` event. */
export async function stopRun(): Promise<void> {
  const state = usePlayground.getState();
  const runId = state.log.runId;
  if (state.status !== "running" || runId === null) return;
  state.setStatus("stopping");
  await fetch(`/api/runs/${encodeURIComponent(runId)}/stop`, { method: "POST" }).catch(
    () => undefined,
  );
}

/** How often each tab asks which runs are in progress (a small JSON answer). */
export const ACTIVE_RUNS_POLL_MS = 2000;

/**
 * Keeps `activeRuns` current in this tab while it is visible: a run another tab started shows
 * in the sidebar (the list is refreshed when a run starts or ends), and when the conversation
 * open here starts running elsewhere, this tab reloads it and follows the run. Polling, not a
 * stream, so a tab holds no extra connection (browsers allow six per server). Returns the stop.
 */
export function watchActiveRuns(
  reopen: (transcriptId: string) => void,
  interval = ACTIVE_RUNS_POLL_MS,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  // A poll whose answer is awaited: the tab shown again meanwhile starts no second loop.
  let asking = false;
  const poll = async () => {
    timer = null;
    asking = true;
    const runs = await fetchActiveRuns();
    asking = false;
    if (stopped) return;
    if (runs !== null) applyActiveRuns(runs, reopen);
    if (document.visibilityState === "visible") timer = setTimeout(poll, interval);
  };
  const onVisible = () => {
    if (document.visibilityState === "visible" && timer === null && !asking) void poll();
  };
  document.addEventListener("visibilitychange", onVisible);
  void poll();
  return () => {
    stopped = true;
    if (timer !== null) clearTimeout(timer);
    document.removeEventListener("visibilitychange", onVisible);
  };
}

/** `GET /api/runs?active=1` as transcript id → run id; null when the server did not answer. */
export async function fetchActiveRuns(): Promise<Record<string, string> | null> {
  const response = await fetch("/api/runs?active=1").catch(() => null);
  if (response?.ok !== true) return null;
  const body = (await response.json().catch(() => null)) as {
    runs?: { runId: string; transcriptId: string }[];
  } | null;
  if (!Array.isArray(body?.runs)) return null;
  return Object.fromEntries(body.runs.map((run) => [run.transcriptId, run.runId]));
}

function applyActiveRuns(runs: Record<string, string>, reopen: (id: string) => void): void {
  const state = usePlayground.getState();
  const before = state.activeRuns;
  const ownRun = state.status === "running" || state.status === "stopping" ? state.log.runId : null;
  // This tab's own run stays marked until its stream ends, even if a poll raced its start.
  const next =
    ownRun !== null && state.transcriptId !== null && runs[state.transcriptId] === undefined
      ? { ...runs, [state.transcriptId]: ownRun }
      : runs;
  const changed =
    Object.keys(next).length !== Object.keys(before).length ||
    Object.entries(next).some(([id, runId]) => before[id] !== runId);
  if (!changed) return;
  state.setActiveRuns(next);
  state.refreshList();
  const open = state.transcriptId;
  if (open !== null && next[open] !== undefined && before[open] !== next[open] && ownRun === null)
    if (!state.replaying) reopen(open);
}
