/**
 * Where captured records go: one narrow interface. `storeSink` hands each captured turn to
 * the server's run registry (docs/live-runs.md) as a run of its own, which stores its records (grouped
 * commits) and streams them to any page watching, exactly like a playground run; `teeSinks`
 * feeds several sinks.
 */
import type { TranscriptRecord } from "../protocol/records";
import type { LiveRun } from "../server/live-run";
import { type RunRegistry, runRegistry } from "../server/run-registry";
import type { CreateTranscriptInput, Store } from "../store/store";

/** One proxied call: one model turn of a captured transcript, written as one run. */
export interface CapturedTurn {
  transcriptId: string;
  runId: string;
  turn: number;
  /** Breaks the proxied call off (a user's stop of the run); the turn then ends `interrupt` (`user`). */
  stop: () => void;
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
 * Writes captured turns through the run registry: creates a new transcript first (appends of
 * any turn of it wait for that), opens the turn as a live run, then publishes each record in
 * order. A store failure is logged and never reaches the proxied traffic; a user's stop of
 * the run (on any instance) does: it breaks the proxied call off (`CapturedTurn.stop`).
 *
 * A transcript whose creation failed (the database was down a moment, the disk full) is
 * created by its conversation's next turn instead: only the conversation's first turn carries
 * `create`, and with the failure remembered every later turn of it was dropped, unlogged.
 */
export function storeSink(
  store: Store,
  log: (message: string, error: unknown) => void,
  registry: RunRegistry = runRegistry(),
): CaptureSink {
  const created = new Map<string, Promise<boolean>>();
  // Creations that failed, kept for the transcript's next turn to try again.
  const retry = new Map<string, NonNullable<CapturedTurn["create"]>>();
  const turns = new Map<string, TurnState>();
  const create = (input: NonNullable<CapturedTurn["create"]>): Promise<boolean> =>
    store.createTranscript(input).then(
      () => {
        retry.delete(input.id);
        return true;
      },
      (error: unknown) => {
        log("could not create a captured transcript", error);
        created.delete(input.id);
        // Bounded like `created`: past it, a conversation failed long ago is not tried again.
        if (retry.size >= 1000) retry.clear();
        retry.set(input.id, input);
        return false;
      },
    );
  return {
    startTurn(turn) {
      let ready = created.get(turn.transcriptId);
      if (ready === undefined) {
        const input = turn.create ?? retry.get(turn.transcriptId);
        ready = input === undefined ? Promise.resolve(true) : create(input);
        // Bounded: an old entry only saves a later turn one resolved promise.
        if (created.size >= 1000) created.clear();
        created.set(turn.transcriptId, ready);
      }
      const state: TurnState = { run: Promise.resolve(null), held: [], live: null };
      state.run = ready.then(async (ok) => {
        if (!ok) return null;
        try {
          const live = await registry.open({
            store,
            transcriptId: turn.transcriptId,
            runId: turn.runId,
            controller: stopper(turn),
          });
          for (const record of state.held) live.publish(record);
          state.held = [];
          state.live = live;
          return live;
        } catch (error) {
          log("could not store a captured turn", error);
          return null;
        }
      });
      turns.set(turn.runId, state);
    },
    append(runId, records) {
      const state = turns.get(runId);
      if (state === undefined) return;
      // Held until the transcript and its run exist, then straight to the live run.
      if (state.live !== null) for (const record of records) state.live.publish(record);
      else state.held.push(...records);
    },
    async finishTurn(runId) {
      const state = turns.get(runId);
      if (state === undefined) return;
      const live = await state.run;
      turns.delete(runId);
      if (live !== null) await registry.finish(live, store);
    },
  };
}

/**
 * The run's controller: a user's stop (`"user"`) breaks the proxied call off. Other reasons
 * leave the call alone: a failed store write (`"storage"`, or another instance took the run
 * over) stops only the recording, which never stands in the agent's way.
 */
function stopper(turn: CapturedTurn): AbortController {
  const controller = new AbortController();
  controller.signal.addEventListener(
    "abort",
    () => {
      if (controller.signal.reason === "user") turn.stop();
    },
    { once: true },
  );
  return controller;
}

interface TurnState {
  run: Promise<LiveRun | null>;
  held: TranscriptRecord[];
  live: LiveRun | null;
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
