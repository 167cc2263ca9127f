import type { CallEvent, ErrorEvent, ResultEvent } from "../protocol/events";
import { type ExecutorOptions, runBatch } from "./executor";

/** How a turn's calls run; the loop drives it without knowing the dialect. */
export interface TurnExecution {
  /** A call the parser just completed. */
  onCall(call: CallEvent): void;
  /** The execute boundary: the calls so far form the batch to run. */
  onExecute(): void;
  /**
   * The model's turn is over: run or await what is pending and return the results to feed
   * back, in order. `callErrors` are malformed calls of the turn; each comes back to the
   * model as a failure so it can correct itself (spec §4.1).
   */
  finish(callErrors: readonly ErrorEvent[]): Promise<ResultEvent[]>;
  /** Interrupt: stop what runs. */
  cancel(): Promise<void>;
}

/** xml and delimiter: the calls of the turn run as one parallel batch at its execute boundary. */
export function batchExecution(options: ExecutorOptions): TurnExecution {
  const pending: CallEvent[] = [];
  const calls: CallEvent[] = [];
  return {
    onCall: (call) => pending.push(call),
    // Calls never followed by an execute marker do not run (spec §4.2).
    onExecute: () => calls.push(...pending.splice(0)),
    async finish(callErrors) {
      const results = await runBatch(calls, options);
      const failures = callErrors.map((error) =>
        protocolFailure(error, options.nextId(), options.now()),
      );
      const start = (event: CallEvent | ErrorEvent) => event.span?.start ?? 0;
      // Keep the model's order: a malformed call's failure sits where the call was written.
      const sources = [
        ...calls.map((call, i) => ({ at: start(call), result: results[i] })),
        ...callErrors.map((error, i) => ({ at: start(error), result: failures[i] })),
      ];
      return sources
        .sort((a, b) => a.at - b.at)
        .flatMap(({ result }) => (result === undefined ? [] : [result]));
    },
    async cancel() {},
  };
}

/** A malformed call block, answered as a failed result so the model sees what was wrong. */
export function protocolFailure(error: ErrorEvent, id: string, timestamp: number): ResultEvent {
  return {
    type: "result",
    id,
    timestamp,
    callId: error.id,
    ...(error.turn === undefined ? {} : { turn: error.turn }),
    payload: {
      tool: "protocol",
      status: "failure",
      content: error.message,
      outcome: "Malformed call, not run",
      durationMs: 0,
    },
  };
}
