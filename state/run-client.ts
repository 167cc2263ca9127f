"use client";

import { readRunStream } from "@/lib/client/run-stream";
import type { DialectDefinition } from "@/lib/protocol";
import { type OpenTranscript, usePlayground } from "./playground-store";

/**
 * Starts a run with the current settings and streams its records into the store. Resolves
 * when the run's stream ends. A refused request (4xx) or a dropped connection becomes a
 * visible failure; nothing is retried behind the user's back.
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
  await streamRun(body);
}

/** The call settings of the settings drawer, for any run the page starts. */
export function runSettings(): Record<string, number> {
  const state = usePlayground.getState();
  const settings: Record<string, number> = { paceMs: state.paceMs };
  if (state.temperature !== null) settings.temperature = state.temperature;
  if (state.maxOutputTokens !== null) settings.maxOutputTokens = state.maxOutputTokens;
  return settings;
}

/** A `POST /api/runs` body (spec §9; see `app/api/runs/schema.ts`). */
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
 * `continueWith`, a regression run. Resolves with the run's transcript id when the stream
 * ends (null when it was refused). Afterwards the stored transcript and the list are reloaded.
 */
export async function streamRun(body: RunBody): Promise<string | null> {
  const state = usePlayground.getState();
  if (state.status === "running" || state.status === "stopping") return null;
  // A replay shows part of the records: a conversation continues from all of them.
  if (state.replaying && state.transcript !== null)
    state.showRecords(state.transcript.records, true, false);
  usePlayground.getState().beginRun();
  try {
    const response = await fetch("/api/runs", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok || response.body === null) {
      const error = (await response.json().catch(() => ({}))) as { error?: string };
      usePlayground
        .getState()
        .endRun("failed", error.error ?? `The server answered ${response.status}.`);
      return null;
    }
    for await (const record of readRunStream(response.body))
      usePlayground.getState().applyRecord(record);
    usePlayground.getState().endRun("done");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    usePlayground.getState().endRun("failed", `The connection to the server failed: ${message}`);
  }
  const transcriptId = usePlayground.getState().transcriptId;
  if (transcriptId !== null) await reloadTranscript(transcriptId);
  return transcriptId;
}

/** Fetches the stored copy of the current transcript (for replay, forks) and refreshes the list. */
async function reloadTranscript(id: string): Promise<void> {
  const response = await fetch(`/api/transcripts/${encodeURIComponent(id)}`).catch(() => null);
  const state = usePlayground.getState();
  state.refreshList();
  if (response?.ok !== true || state.transcriptId !== id) return;
  const transcript = (await response.json()) as OpenTranscript;
  if (usePlayground.getState().transcriptId === id) state.setTranscript(transcript);
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
