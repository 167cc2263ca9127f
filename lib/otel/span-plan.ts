/**
 * What a transcript's runs become as spans, before any OpenTelemetry object exists: pure
 * data (names, parents, times in ms since the epoch, attributes, span events, status), so the
 * mapping is tested without the SDK and the SDK adapter (`sdk-spans.ts`) stays thin.
 */
import type { TranscriptRecord } from "../protocol/records";

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export interface PlannedEvent {
  name: string;
  timeMs: number;
  attributes: Attributes;
}

export interface PlannedSpan {
  /** Stable within a transcript: `run:<runId>`, `turn:<runId>:<n>`, `tool:<runId>:<eventId>`, `agent:<runId>:<callEventId>`. */
  key: string;
  /** The parent's `key`; none for a run's root span. */
  parent?: string;
  traceId: string;
  spanId: string;
  name: string;
  kind: "internal" | "client";
  startMs: number;
  endMs: number;
  attributes: Attributes;
  events: PlannedEvent[];
  error?: { type: string; message: string };
}

/** One run's records and, when the store knows them, its start and end. */
export interface RunInput {
  runId: string;
  startedAt?: number;
  endedAt?: number | null;
  records: readonly TranscriptRecord[];
}

export interface PlanOptions {
  /** Message content, tool arguments and results, and the raw wire text (opt-in). */
  content: boolean;
  /** Applied to every piece of text that goes out (keys, credential-looking values). */
  redact: (text: string) => string;
}
