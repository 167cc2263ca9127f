import type { CallEvent, ErrorEvent, ProtocolEvent, ResultEvent } from "../protocol/events";
import { type ExecutorOptions, runCall } from "./executor";
import type { Scheduler } from "./scheduler";
import { resolveText } from "./variables";

/**
 * How a run's calls execute; the loop drives it without knowing the dialect. Results are
 * emitted the moment they exist (so the timeline shows them live); `finishTurn` returns the
 * ones to feed back to the model, in the model's order.
 */
export interface RunExecution {
  /** A call the parser just completed. */
  onCall(call: CallEvent): void;
  /** The execute boundary: the calls so far form the batch to run. */
  onExecute(): void;
  /**
   * The model's turn is over: run or await what is pending and return the results to feed
   * back. `callErrors` are malformed calls of the turn; each comes back to the model as a
   * failure so it can correct itself (docs/dialects/xml.md).
   */
  finishTurn(callErrors: readonly ErrorEvent[]): Promise<ResultEvent[]>;
  /** End of the run (also after an interrupt): wait for what still runs, e.g. fire_and_forget. */
  drain(): Promise<void>;
  /**
   * The turn ends without running its batch (an interrupt or a provider failure after the
   * execute boundary): every call of the batch still gets one result, `skipped`.
   */
  abandonTurn(outcome: string): void;
  /** `$names` in a response that no action of the run has produced (action dialect only). */
  unknownVariables?(text: string): string[];
}

export type Emit = (event: ProtocolEvent) => void;

/** xml and delimiter: the calls of a turn run as one parallel batch at its execute boundary. */
export function batchExecution(options: ExecutorOptions, emit: Emit): RunExecution {
  let pending: CallEvent[] = [];
  let batch: CallEvent[] = [];
  return {
    onCall: (call) => pending.push(call),
    // Calls never followed by an execute marker do not run (docs/dialects/delimiter.md).
    onExecute: () => {
      batch.push(...pending);
      pending = [];
    },
    async finishTurn(callErrors) {
      const calls = batch;
      batch = [];
      pending = [];
      const results = await Promise.all(
        calls.map((call) =>
          runCall(call, options).then((result) => {
            emit(result);
            return result;
          }),
        ),
      );
      const sources = calls.map((call, i) => ({ at: call.span.start, result: results[i] }));
      for (const error of callErrors) {
        const result = protocolFailure(error, options.nextId(), options.now());
        emit(result);
        sources.push({ at: error.span?.start ?? 0, result });
      }
      // The model's order: a malformed call's failure sits where the call was written.
      return sources
        .sort((a, b) => a.at - b.at)
        .flatMap(({ result }) => (result === undefined ? [] : [result]));
    },
    abandonTurn(outcome) {
      for (const call of batch) {
        const payload = {
          tool: call.call.name,
          status: "skipped" as const,
          content: outcome,
          outcome,
          durationMs: 0,
        };
        emit({
          type: "result",
          id: options.nextId(),
          timestamp: options.now(),
          callId: call.call.id,
          turn: call.turn,
          payload,
        });
      }
      batch = [];
      pending = [];
    },
    async drain() {},
  };
}

/** action: each call goes to the scheduler the moment it closes; the turn settles at its end. */
export function scheduledExecution(
  scheduler: Scheduler,
  emit: Emit,
  ids: Pick<ExecutorOptions, "nextId" | "now">,
): RunExecution {
  return {
    onCall: (call) => scheduler.submit(call),
    onExecute: () => {},
    async finishTurn(callErrors) {
      const results = await scheduler.settle();
      const failures = callErrors.map((error) => protocolFailure(error, ids.nextId(), ids.now()));
      for (const failure of failures) emit(failure);
      return [...results, ...failures];
    },
    // The scheduler gives running and waiting actions their results when the run is interrupted.
    abandonTurn: () => {},
    drain: () => scheduler.drain(),
    unknownVariables: (text) => resolveText(text, scheduler.variables()).unknown,
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
