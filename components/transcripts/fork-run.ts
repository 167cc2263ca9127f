"use client";

import { usePlayground } from "@/state/playground-store";
import { runSettings, streamRun } from "@/state/run-client";
import { type ForkBody, forkTranscript } from "./api";
import { openTranscript } from "./navigation";

/**
 * Forks the source (which stays as it is), opens the fork at its own URL, and continues it
 * with the reply's `continueWith`. `onForked` runs once the fork exists. Resolves with the
 * server's refusal, or null.
 */
export async function forkAndRun(
  sourceId: string,
  body: ForkBody,
  message: string | undefined,
  onForked: () => void,
): Promise<string | null> {
  const reply = await forkTranscript(sourceId, body);
  if (!reply.ok) return reply.error;
  onForked();
  const { transcript, continueWith, resume } = reply.value;
  usePlayground.getState().refreshList();
  if (!(await openTranscript(transcript.id))) return null;
  const text = continueWith.message ?? message;
  if (text === undefined && !resume) {
    usePlayground
      .getState()
      .notify({ text: "Forked. Send a message to continue the fork.", tone: "info" });
    return null;
  }
  await streamRun({
    ...continueWith,
    model: { ...continueWith.model, settings: runSettings() },
    ...(text === undefined ? {} : { message: text }),
  });
  return null;
}
