"use client";

import { readRunStream } from "@/lib/client/run-stream";
import { usePlayground } from "./playground-store";

/**
 * Starts a run with the current settings and streams its records into the store. Resolves
 * when the run's stream ends. A refused request (4xx) or a dropped connection becomes a
 * visible failure; nothing is retried behind the user's back.
 */
export async function sendMessage(message: string): Promise<void> {
  const state = usePlayground.getState();
  if (state.status === "running" || state.status === "stopping") return;
  const settings: Record<string, number> = { paceMs: state.paceMs };
  if (state.temperature !== null) settings.temperature = state.temperature;
  if (state.maxOutputTokens !== null) settings.maxOutputTokens = state.maxOutputTokens;
  const body = {
    message,
    dialect: state.dialect,
    model: { provider: state.provider, id: state.modelId, settings },
    ...(state.transcriptId === null ? {} : { transcriptId: state.transcriptId }),
    ...(state.system === null ? {} : { system: state.system }),
    ...(state.tools === null ? {} : { tools: state.tools }),
  };
  state.beginRun();
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
      return;
    }
    for await (const record of readRunStream(response.body))
      usePlayground.getState().applyRecord(record);
    usePlayground.getState().endRun("done");
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    usePlayground.getState().endRun("failed", `The connection to the server failed: ${message}`);
  }
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
