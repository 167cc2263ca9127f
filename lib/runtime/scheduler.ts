/**
 * The action scheduler (docs/dialects/action.md): each `action`-dialect call starts the moment the parser
 * emits it, while the model keeps streaming. `scheduler-plan.ts` decides what may start; this
 * adapter runs it (substitution, retries, per-attempt timeout, result cap, cancellation) and
 * emits `result` and `error` events as they happen. One scheduler per run: variables and the
 * ids of earlier turns persist across turns.
 */
import type {
  ActionSpec,
  ActionType,
  CallEvent,
  ErrorCode,
  ProtocolEvent,
  ResultEvent,
  ResultPayload,
} from "../protocol/events";
import { capContent, DEFAULT_MAX_RESULT, DEFAULT_TIMEOUT_MS } from "./executor";
import { createPlan, type Decision } from "./scheduler-plan";
import { references, substitute, variableValue } from "./variables";

/** What a runner returns: a result payload before the scheduler measures its duration. */
export type ActionRun = Omit<ResultPayload, "durationMs">;

/** Runs one action with its substituted arguments. Should resolve, not reject; a rejection becomes a failure. */
export type ActionRunner = (
  call: CallEvent,
  args: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<ActionRun>;

export type ActionRunners = Record<ActionType, ActionRunner>;

export interface SchedulerOptions {
  runners: ActionRunners;
  /** `result` and `error` events, as they happen. */
  emit(event: ProtocolEvent): void;
  now(): number;
  nextId(): string;
  /** Interrupt: running actions fail, waiting ones are skipped, later ones skipped on arrival. */
  signal: AbortSignal;
  /** Per attempt, when the action sets no `timeout` (default 30 s). */
  defaultTimeoutMs?: number;
  /** Cap on a result's serialized size (default 64 KiB), as in the executor. */
  maxResultBytes?: number;
}

export interface Scheduler {
  /** Call synchronously the moment the parser emits the call: it may start right away. */
  submit(call: CallEvent): void;
  /**
   * End of the model's turn: dependencies that never arrived are skipped, then resolves with
   * the results of every sync/async action submitted since the last `settle`, in submission
   * order. `fire_and_forget` results are emitted but never returned (never fed to the model).
   */
  settle(): Promise<ResultEvent[]>;
  /** End of the run: waits for every action, `fire_and_forget` included. */
  drain(): Promise<void>;
  /** Values stored by `output_key`, for the whole run. */
  variables(): ReadonlyMap<string, unknown>;
}

/** The parser's defaults for an `<action>` without attributes. */
const DEFAULT_ACTION: ActionSpec = { type: "tool", mode: "sync" };

interface Entry {
  index: number;
  call: CallEvent;
  action: ActionSpec;
  done: Promise<ResultEvent>;
  resolve(result: ResultEvent): void;
}

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { emit, now, nextId, signal, runners } = options;
  const defaultSeconds = (options.defaultTimeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000;
  const maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT;
  const plan = createPlan();
  const entries: Entry[] = [];
  const variables = new Map<string, unknown>();
  let settledCount = 0;

  const entryAt = (index: number): Entry => {
    const entry = entries[index];
    if (entry === undefined) throw new Error(`The plan named action ${index}, never submitted.`);
    return entry;
  };

  const emitError = (code: ErrorCode, message: string, entry: Entry) => {
    const { call } = entry;
    emit({
      type: "error",
      id: nextId(),
      timestamp: now(),
      code,
      message,
      turn: call.turn,
      callId: call.call.id,
      tool: call.call.name,
    });
  };

  const record = (entry: Entry, payload: ActionRun, started: number) => {
    const result: ResultEvent = {
      type: "result",
      id: nextId(),
      timestamp: now(),
      callId: entry.call.call.id,
      turn: entry.call.turn,
      payload: { ...capContent(payload, maxResultBytes), durationMs: now() - started },
    };
    // Stored uncapped: a later action's parameters may need all of it; the model sees the cap.
    const key = entry.action.outputKey;
    if (payload.status === "success" && key !== undefined)
      variables.set(key, variableValue(entry.action.type, payload.tool, payload.content));
    entry.resolve(result);
    emit(result);
  };

  const apply = (decisions: readonly Decision[]) => {
    for (const decision of decisions) {
      const entry = entryAt(decision.index);
      if (decision.kind === "start") {
        void start(entry);
        continue;
      }
      if (decision.problem !== undefined) emitError("dependency", decision.problem, entry);
      const content = decision.problem ?? `${decision.outcome}; the action did not run.`;
      const skipped = { tool: entry.call.call.name, status: "skipped", content } as const;
      record(entry, { ...skipped, outcome: decision.outcome }, now());
    }
  };

  const start = async (entry: Entry) => {
    const started = now();
    const substituted = substitute(entry.call.call.args, variables);
    for (const name of substituted.unknown) {
      const known = [...variables.keys()].map((key) => `$${key}`).join(", ") || "none yet";
      const message = `Unknown variable $${name}: no action has stored it with output_key (known: ${known}); it was left as written.`;
      emitError("unknown_variable", message, entry);
    }
    const args = substituted.value as Record<string, unknown>;
    const payload = await runWithRetries(entry, args);
    record(entry, payload, started);
    apply(plan.finish(entry.index, payload.status));
  };

  const runWithRetries = async (entry: Entry, args: Record<string, unknown>) => {
    const { retry, onError } = entry.action;
    const attempts = 1 + (retry ?? (onError === "retry" ? 1 : 0));
    for (let attempt = 1; ; attempt++) {
      const payload = await runAttempt(entry, args);
      // Only failures are retried, and never after an interrupt.
      // Only failures are retried (the parser caps `retry`, so this stays short).
      if (payload.status === "failure" && attempt < attempts && !signal.aborted) continue;
      if (attempts === 1) return payload;
      return { ...payload, outcome: `${payload.outcome} (attempt ${attempt} of ${attempts})` };
    }
  };

  const runAttempt = async (entry: Entry, args: Record<string, unknown>): Promise<ActionRun> => {
    const { call, action } = entry;
    const tool = call.call.name;
    const seconds = action.timeout ?? defaultSeconds;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let onAbort = () => {};
    // Settles on timeout or interrupt, so a runner that ignores its signal cannot hold us.
    const stopped = new Promise<ActionRun>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error("timeout"));
        const content = `The action did not finish within ${seconds} s and was stopped.`;
        resolve({ tool, status: "failure", content, outcome: `Timed out after ${seconds} s` });
      }, seconds * 1000);
      onAbort = () => {
        controller.abort(signal.reason);
        const content = "The action was cancelled by an interrupt.";
        resolve({ tool, status: "failure", content, outcome: "Cancelled" });
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });
    const runner = runners[action.type];
    let running: Promise<ActionRun>;
    try {
      running = runner(call, args, controller.signal).catch((error) => crashed(tool, error));
    } catch (error) {
      running = Promise.resolve(crashed(tool, error));
    }
    try {
      return await Promise.race([running, stopped]);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
  };

  if (signal.aborted) apply(plan.cancel());
  else signal.addEventListener("abort", () => apply(plan.cancel()), { once: true });

  return {
    submit(call) {
      const action = call.action ?? DEFAULT_ACTION;
      let resolve: (result: ResultEvent) => void = () => {};
      const done = new Promise<ResultEvent>((settle) => {
        resolve = settle;
      });
      const entry: Entry = { index: entries.length, call, action, done, resolve };
      entries.push(entry);
      apply(
        plan.add({
          id: call.call.id,
          turn: call.turn,
          mode: action.mode,
          outputKey: action.outputKey,
          dependsOn: action.dependsOn,
          references: references(call.call.args),
          tolerated: action.onError === "skip",
        }),
      );
    },

    settle() {
      apply(plan.closeTurn());
      const batch = entries
        .slice(settledCount)
        .filter((entry) => entry.action.mode !== "fire_and_forget");
      settledCount = entries.length;
      return Promise.all(batch.map((entry) => entry.done));
    },

    async drain() {
      apply(plan.closeTurn());
      await Promise.all(entries.map((entry) => entry.done));
    },

    variables: () => variables,
  };
}

/** A runner that threw instead of resolving: a bug, reported as a failure so the run goes on. */
function crashed(tool: string, error: unknown): ActionRun {
  const reason = error instanceof Error ? error.message : String(error);
  return {
    tool,
    status: "failure",
    content: `The ${tool} action failed unexpectedly: ${reason}`,
    outcome: "Internal error",
  };
}
