"use client";

import { usePlayground } from "@/state/playground-store";
import { importTranscriptFile } from "./api";
import { openTranscript } from "./navigation";

/**
 * Imports a transcript file and opens it. A refused file shows the server's message, which
 * names the first bad line and why ("line 7: event.type: …").
 */
export async function importFile(file: File): Promise<void> {
  const result = await importTranscriptFile(file);
  const state = usePlayground.getState();
  if (!result.ok) {
    state.notify({ text: `Could not import ${file.name}: ${result.error}`, tone: "danger" });
    return;
  }
  state.refreshList();
  const { transcript, records } = result.value;
  if (await openTranscript(transcript.id))
    state.notify({ text: `Imported "${transcript.title}" (${records} records).`, tone: "info" });
}
