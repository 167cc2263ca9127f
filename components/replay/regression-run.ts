"use client";

import { renameTranscript } from "@/components/transcripts/api";
import { newConversation } from "@/components/transcripts/navigation";
import { dialectOf } from "@/lib/protocol";
import { type OpenTranscript, usePlayground } from "@/state/playground-store";
import { runSettings, streamRun } from "@/state/run-client";

/** The conversation's own user messages, in order (a sub-agent's task is not one). */
export function userMessages(transcript: OpenTranscript): string[] {
  return transcript.records.flatMap((record) =>
    record.kind === "event" && record.event.type === "user" && record.event.parent === undefined
      ? [record.event.content]
      : [],
  );
}

/**
 * A deterministic regression run (lib/replay/CONTEXT.md): a new transcript that sends the same
 * user messages, one run each, to the `replay` model, which answers with the recorded output
 * while the tools run live.
 */
export async function regressionRun(transcript: OpenTranscript): Promise<void> {
  const [first, ...rest] = userMessages(transcript);
  const store = usePlayground.getState();
  if (first === undefined) {
    store.notify({ text: "This transcript has no user message to send again.", tone: "danger" });
    return;
  }
  const { meta } = transcript;
  const model = () => ({ provider: "replay", id: meta.id, settings: runSettings() });
  newConversation();
  const id = await streamRun({ message: first, dialect: dialectOf(meta), model: model() });
  if (id === null) return;
  const renamed = await renameTranscript(id, `${meta.title} · replay`);
  const after = usePlayground.getState();
  if (renamed.ok && after.transcript?.meta.id === id)
    after.setTranscript({ ...after.transcript, meta: renamed.value.meta });
  after.refreshList();
  for (const message of rest) {
    if (usePlayground.getState().status !== "done") return;
    await streamRun({ message, dialect: dialectOf(meta), model: model(), transcriptId: id });
  }
}
