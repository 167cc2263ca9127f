import type { ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { estimateMessagesTokens } from "./estimate";
import { type SummaryOptions, SummaryPasses } from "./summary-passes";
import type { RunSummary } from "./types";

export type { SummaryOptions } from "./summary-passes";

/** What a turn's text and request say, for turns the transcript has no metric for. */
export interface TurnText {
  raw: string;
  request?: { provider: string; model: string; messages: readonly unknown[]; t?: number };
  /** Its chunks' times (`t`), for how long its text took to come when no metric says. */
  chunks?: readonly { t: number }[];
}

/** The input of `summarize`: events in order (pieces or merged) and each turn's text. */
export interface SummaryInput {
  events: readonly ProtocolEvent[];
  turns: ReadonlyMap<number, TurnText>;
}

/** The numbers of a transcript's records: what the store and a transcript file hold. */
export function summarizeRecords(
  records: readonly TranscriptRecord[],
  options: SummaryOptions = {},
): RunSummary {
  const passes = new SummaryPasses(options);
  for (const record of records) passes.record(record);
  passes.endFirst();
  for (const record of records) if (record.kind === "event") passes.second(record.event);
  return passes.result();
}

/** The numbers of events alone (no raw text or requests: unmeasured turns count 0 tokens). */
export function summarizeEvents(
  events: readonly ProtocolEvent[],
  options: SummaryOptions = {},
): RunSummary {
  return summarize({ events, turns: new Map() }, options);
}

/** Per-turn and whole-transcript metrics (`SummaryPasses` says how they are counted). */
export function summarize(input: SummaryInput, options: SummaryOptions = {}): RunSummary {
  const passes = new SummaryPasses(options);
  for (const [turn, text] of input.turns) {
    const { request } = text;
    // Chunks come in order: the first and last say when the text began and ended.
    const times = [text.request?.t, text.chunks?.[0]?.t, text.chunks?.at(-1)?.t].filter(
      (t): t is number => t !== undefined && Number.isFinite(t),
    );
    passes.turnText(turn, {
      rawLength: text.raw.length,
      ...(times.length === 0 ? {} : { firstT: Math.min(...times), lastT: Math.max(...times) }),
      ...(request === undefined
        ? {}
        : {
            request: {
              provider: request.provider,
              model: request.model,
              inputTokens: () => estimateMessagesTokens(request.messages),
            },
          }),
    });
  }
  for (const event of input.events) passes.first(event);
  passes.endFirst();
  for (const event of input.events) passes.second(event);
  return passes.result();
}
