/** Test helpers of the capture proxy's recording of an answer (`TurnRecorder`). */
import type { Dialect } from "../protocol/events";
import { mergePieces } from "../protocol/merge";
import type { TranscriptRecord } from "../protocol/records";
import type { AnswerDelta } from "./answer-decoder";
import { TurnRecorder } from "./turn-recorder";

/**
 * Records `deltas` as turn 0 of a call whose dialect was named: its records, the raw text,
 * the events merged, and the recorder. `oneByOne`: each delta is pushed alone, as a stream's
 * frames come; else all at once.
 */
export function recordDeltas(
  deltas: readonly AnswerDelta[],
  { dialect = "xml", maxChars = 10_000, oneByOne = false }: RecordOptions = {},
) {
  const records: TranscriptRecord[] = [];
  const recorder = new TurnRecorder({
    turn: 0,
    chosen: { dialect, by: "header", reason: "named" },
    request: {
      kind: "request",
      turn: 0,
      provider: "openai",
      model: "m",
      messages: [],
      settings: {},
    },
    requestText: "",
    elapsed: () => 0,
    clock: () => 0,
    maxChars,
    emit: (batch) => records.push(...batch),
  });
  if (oneByOne) for (const delta of deltas) recorder.push([delta]);
  else recorder.push([...deltas]);
  recorder.end();
  const raw = records.flatMap((r) => (r.kind === "chunk" ? [r.text] : [])).join("");
  const events = mergePieces(records.flatMap((r) => (r.kind === "event" ? [r.event] : [])));
  return { records, raw, events, recorder };
}

interface RecordOptions {
  dialect?: Dialect;
  maxChars?: number;
  oneByOne?: boolean;
}
