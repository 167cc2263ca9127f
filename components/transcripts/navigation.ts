"use client";

import type { Dialect, DialectDefinition } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { attachRun, fetchActiveRuns } from "@/state/run-client";
import { catchUp, loadAll, readTranscriptTail } from "@/state/transcript-pages";
import { quotedTitle } from "./notice-toast";
import { settleRoute } from "./route-opening";

/** A transcript's own URL. */
export const transcriptPath = (id: string) => `/t/${encodeURIComponent(id)}`;

/** The transcript id in a path like `/t/<id>`, or null. */
export function idFromPath(pathname: string): string | null {
  const match = /^\/t\/([^/]+)\/?$/.exec(pathname);
  if (match?.[1] === undefined) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

let loading = 0;

/**
 * Loads a saved transcript into the store and puts its URL in the address bar (a new history
 * entry with `push`). Only its tail is read (older records load as the user scrolls up). A
 * transcript that cannot be loaded is said so, and the page starts over.
 *
 * The tail (often preloaded with the HTML) and the list of live runs are read at the same
 * time, and the tail is shown as soon as it arrives. A live run of this transcript is then
 * followed from the records the page has; with none, a run that ended between the two reads
 * may have added records the tail lacks: `catchUp` reads and shows them.
 */
export async function openTranscript(id: string, push = true): Promise<boolean> {
  settleRoute();
  const state = usePlayground.getState();
  if (state.status === "running" || state.status === "stopping") return false;
  const ticket = ++loading;
  if (push && window.location.pathname !== transcriptPath(id))
    window.history.pushState(null, "", transcriptPath(id));
  const asked = fetchActiveRuns();
  // Said while it is read (a long model turn is read whole: seconds for a huge one).
  usePlayground.getState().setOpening(id);
  const result = await readTranscriptTail(id).finally(() => {
    if (ticket === loading) usePlayground.getState().setOpening(null);
  });
  // A later click won: its transcript is the one to show.
  if (ticket !== loading) return false;
  if (!result.ok) {
    usePlayground.getState().notify({ text: result.error, tone: "danger" });
    newConversation();
    return false;
  }
  usePlayground.getState().openTranscript(result.value);
  const active = await asked;
  if (ticket !== loading) return true;
  const runId = active?.[id];
  if (runId === undefined) void catchUp(result.value);
  else {
    // The run is followed from the number of its records the page has: all of them, so when
    // the tail begins inside the run, the rest is read first.
    if (result.value.records[0]?.runId === runId) await loadAll();
    const records = usePlayground.getState().transcript?.records ?? [];
    const have = records.filter((record) => record.runId === runId).length;
    if (ticket === loading) void attachRun(runId, have);
  }
  return true;
}

/** Drops a transcript still being read: what it brings is not shown. */
export function cancelOpen(): void {
  settleRoute();
  loading++;
  usePlayground.getState().setOpening(null);
}

/** A blank conversation at `/`. */
export function newConversation(): void {
  cancelOpen();
  if (window.location.pathname !== "/") window.history.pushState(null, "", "/");
  usePlayground.getState().newConversation();
}

/**
 * Picks the dialect of the next run. A conversation keeps its dialect, so with one open this
 * starts a new conversation, and says so: the old one stays as it was (fork it to go on in
 * the new dialect), with a way back to it.
 */
export function switchDialect(
  dialect: Dialect,
  definition: DialectDefinition | null = null,
  label: string = definition?.name ?? dialect,
): void {
  const state = usePlayground.getState();
  const open = state.transcriptId;
  const previous = state.definition?.name ?? state.dialect;
  if (open === null || (previous === label && state.dialect === dialect)) {
    state.setSettings({ dialect, definition });
    return;
  }
  const title =
    state.transcript?.meta.id === open ? state.transcript.meta.title : "The conversation";
  newConversation();
  usePlayground.getState().setSettings({ dialect, definition });
  usePlayground.getState().notify({
    text: `New conversation in ${label}. ${quotedTitle(title)} stays in ${previous}: open it and use Fork… to go on in ${label}.`,
    tone: "info",
    action: { label: "Back to it", run: () => void openTranscript(open) },
  });
}
