"use client";

import { usePlayground } from "@/state/playground-store";
import { importTranscriptFile } from "./api";
import { openTranscript } from "./navigation";
import { quotedTitle } from "./notice-toast";

/** Files read as a model's raw wire text rather than a transcript file (JSONL). */
export function isRawTextFile(name: string): boolean {
  return /\.(txt|log)$/i.test(name);
}

/**
 * Imports a transcript file and opens it. A refused file shows the server's message, which
 * names the first bad line and why ("line 7: event.type: …"). A `.txt` / `.log` file is sent
 * as raw text: the toast names the dialect the server parsed it with and why.
 */
export async function importFile(file: File): Promise<void> {
  const raw = isRawTextFile(file.name) ? { title: file.name.slice(0, 200) } : undefined;
  const result = await importTranscriptFile(file, raw);
  const state = usePlayground.getState();
  if (!result.ok) {
    state.notify({ text: `Could not import ${file.name}: ${result.error}`, tone: "danger" });
    return;
  }
  state.refreshList();
  const { transcript, records, dialect } = result.value;
  const how =
    dialect === undefined
      ? ""
      : dialect.by === "query"
        ? ` as ${dialect.dialect}`
        : ` as ${dialect.dialect} (${dialect.by === "detected" ? "detected: " : ""}${dialect.reason})`;
  if (await openTranscript(transcript.id))
    state.notify({
      text: `Imported ${quotedTitle(transcript.title)}${how} (${records} records).`,
      tone: "info",
    });
}
