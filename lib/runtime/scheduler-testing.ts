/**
 * Test helpers for the scheduler: calls built like the action parser builds them, and fake
 * runners whose attempts stay pending until the test resolves them by hand (no timing races).
 */
import type { ActionSpec, CallEvent, ProtocolEvent, ResultEvent } from "../protocol/events";
import {
  type ActionRun,
  type ActionRunner,
  createScheduler,
  type Scheduler,
  type SchedulerOptions,
} from "./scheduler";

export interface ActionOptions extends Partial<ActionSpec> {
  name?: string;
  args?: Record<string, unknown>;
  turn?: number;
}

export function action(id: string, options: ActionOptions = {}): CallEvent {
  const { name = "fake", args = {}, turn = 0, type = "tool", mode = "async", ...rest } = options;
  return {
    type: "call",
    id: `event-${id}`,
    timestamp: 0,
    turn,
    span: { start: 0, end: 0 },
    call: { id, name, args },
    action: { type, mode, ...rest },
  };
}

interface Attempt {
  args: Record<string, unknown>;
  signal: AbortSignal;
  resolve(run: ActionRun): void;
}

export interface Harness {
  scheduler: Scheduler;
  events: ProtocolEvent[];
  controller: AbortController;
  /** Call ids in the order their attempts started (a retried id appears once per attempt). */
  started: string[];
  /** The latest attempt of a call: its substituted args and signal. */
  attempt(id: string): Attempt;
  succeed(id: string, content?: unknown): void;
  fail(id: string, message?: string): void;
  /** Most attempts running at once so far. */
  maxConcurrency(): number;
  results(): ResultEvent[];
  result(id: string): ResultEvent | undefined;
  errors(): Extract<ProtocolEvent, { type: "error" }>[];
}

/** Lets every pending promise callback run (runner resolutions, the next starts). */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

export function createHarness(options: Partial<SchedulerOptions> = {}): Harness {
  const events: ProtocolEvent[] = [];
  const controller = new AbortController();
  const started: string[] = [];
  const attempts = new Map<string, Attempt[]>();
  let active = 0;
  let max = 0;
  let ids = 0;
  const fake: ActionRunner = (call, args, signal) => {
    started.push(call.call.id);
    active++;
    max = Math.max(max, active);
    return new Promise<ActionRun>((resolve) => {
      const list = attempts.get(call.call.id) ?? [];
      list.push({ args, signal, resolve });
      attempts.set(call.call.id, list);
    }).finally(() => {
      active--;
    });
  };
  const attempt = (id: string): Attempt => {
    const found = attempts.get(id)?.at(-1);
    if (found === undefined) throw new Error(`Action "${id}" has not started.`);
    return found;
  };
  const results = () => events.filter((event) => event.type === "result");
  const scheduler = createScheduler({
    runners: { tool: fake, agent: fake, relic: fake, workflow: fake, llm: fake },
    emit: (event) => events.push(event),
    now: () => 0,
    nextId: () => `e${++ids}`,
    signal: controller.signal,
    ...options,
  });
  return {
    scheduler,
    events,
    controller,
    started,
    attempt,
    succeed: (id, content = `${id} done`) =>
      attempt(id).resolve({ tool: "fake", status: "success", content, outcome: "Done" }),
    fail: (id, message = `${id} broke`) =>
      attempt(id).resolve({ tool: "fake", status: "failure", content: message, outcome: message }),
    maxConcurrency: () => max,
    results,
    result: (id) => results().find((event) => event.callId === id),
    errors: () => events.filter((event) => event.type === "error"),
  };
}
