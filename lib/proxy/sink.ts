/**
 * Where captured records go: one narrow interface, so the store and a live view (the run
 * registry of spec §10) can each take them. `storeSink` writes them to the store; a live
 * registry can implement the same three calls, and `teeSinks` feeds both.
 */
import type { TranscriptRecord } from "../protocol/records";
import { createRecordWriter } from "../server/record-writer";
import type { CreateTranscriptInput, Store } from "../store/store";

/** One proxied call: one model turn of a captured transcript, written as one run. */
export interface CapturedTurn {
  transcriptId: string;
  runId: string;
  turn: number;
  /** Set when the transcript is new: how to create it (with `id` = `transcriptId`). */
  create?: CreateTranscriptInput & { id: string };
}

export interface CaptureSink {
  /** A turn starts; records for it follow through `append`, in order. */
  startTurn(turn: CapturedTurn): void;
  append(runId: string, records: readonly TranscriptRecord[]): void;
  /** The turn is over; resolves once its records are written. */
  finishTurn(runId: string): Promise<void>;
}

/**
 * Writes captured turns to the store: creates a new transcript first (appends of any turn
 * of it wait for that), then appends each turn's records in order, batching while a write is
 * in flight. A store failure is logged and never reaches the proxied traffic.
 */
export function storeSink(
  store: Store,
  log: (message: string, error: unknown) => void,
): CaptureSink {
  const created = new Map<string, Promise<boolean>>();
  const turns = new Map<string, TurnState>();
  return {
    startTurn(turn) {
      let ready = created.get(turn.transcriptId);
      if (ready === undefined) {
        ready =
          turn.create === undefined
            ? Promise.resolve(true)
            : store.createTranscript(turn.create).then(
                () => true,
                (error: unknown) => {
                  log("could not create a captured transcript", error);
                  return false;
                },
              );
        // Bounded: an old entry only saves a later turn one resolved promise.
        if (created.size >= 1000) created.clear();
        created.set(turn.transcriptId, ready);
      }
      const writer = createRecordWriter(store, turn.transcriptId, turn.runId, (error) =>
        log("could not store a captured record", error),
      );
      const state: TurnState = { ready, held: [], open: false, writer };
      turns.set(turn.runId, state);
      void ready.then((ok) => {
        if (!ok) return;
        for (const record of state.held) writer.write(record);
        state.held = [];
        state.open = true;
      });
    },
    append(runId, records) {
      const state = turns.get(runId);
      if (state === undefined) return;
      // Held until the transcript exists, then straight to the writer.
      if (state.open) for (const record of records) state.writer.write(record);
      else state.held.push(...records);
    },
    async finishTurn(runId) {
      const state = turns.get(runId);
      if (state === undefined) return;
      turns.delete(runId);
      if (await state.ready) await state.writer.flush();
    },
  };
}

interface TurnState {
  ready: Promise<boolean>;
  held: TranscriptRecord[];
  open: boolean;
  writer: ReturnType<typeof createRecordWriter>;
}

/** Every record to each sink, in order. */
export function teeSinks(...sinks: readonly CaptureSink[]): CaptureSink {
  return {
    startTurn: (turn) => {
      for (const sink of sinks) sink.startTurn(turn);
    },
    append: (runId, records) => {
      for (const sink of sinks) sink.append(runId, records);
    },
    finishTurn: async (runId) => {
      await Promise.all(sinks.map((sink) => sink.finishTurn(runId)));
    },
  };
}
