import type { ProtocolEvent } from "./events";

/**
 * What a run produces, in order (docs/transcript-file.md, docs/http-api.md): every event, every raw model chunk and the
 * request sent for each model turn. The server streams them, the store appends them, a
 * transcript file holds them, replay reads them back.
 */
export interface EventRecord {
  kind: "event";
  event: ProtocolEvent;
}

/** A raw model chunk exactly as received; `t` is ms since the run started. */
export interface ChunkRecord {
  kind: "chunk";
  turn: number;
  t: number;
  text: string;
}

/** Exactly what was sent to the model for one turn, secrets already redacted. */
export interface RequestRecord {
  kind: "request";
  turn: number;
  t: number;
  provider: string;
  model: string;
  messages: unknown[];
  settings: Record<string, unknown>;
}

export type TranscriptRecord = EventRecord | ChunkRecord | RequestRecord;
export type RecordKind = TranscriptRecord["kind"];
