import type { CallEvent, ResultEvent, ResultPayload } from "../protocol/events";
import type { Registry, ToolContext } from "../tools";

export interface ExecutorOptions {
  registry: Registry;
  context: Omit<ToolContext, "signal">;
  /** Cancels every running call (an interrupt). */
  signal: AbortSignal;
  /** Per-call limit (docs/tools-and-context.md: default 30 s). */
  timeoutMs?: number;
  /** Cap on a result's serialized size (docs/tools-and-context.md: default 64 KiB); longer results are cut, visibly. */
  maxResultBytes?: number;
  /** Injected time source for durations and timestamps. */
  now: () => number;
  /** Ids for result events. */
  nextId: () => string;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESULT = 64 * 1024;

/**
 * Runs one call: validated first, then run with its own timeout and a signal that also
 * follows the run's. Never throws — every call gets exactly one result (docs/tools-and-context.md).
 */
export async function runCall(call: CallEvent, options: ExecutorOptions): Promise<ResultEvent> {
  const { registry, signal, now } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const started = now();
  const controller = new AbortController();
  const stop = () => controller.abort(signal.reason);
  signal.addEventListener("abort", stop, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const run = registry.run(call.call.name, call.call.args, {
      ...options.context,
      signal: controller.signal,
    });
    const outcome = await Promise.race([run, timedOut]);
    let payload: Omit<ResultPayload, "durationMs">;
    if (outcome === "timeout") {
      controller.abort(new Error("timeout"));
      const seconds = Math.round(timeoutMs / 100) / 10;
      payload = {
        tool: call.call.name,
        status: "failure",
        content: `The call did not finish within ${seconds} s and was stopped.`,
        outcome: `Timed out after ${seconds} s`,
      };
    } else {
      payload = outcome;
    }
    return {
      type: "result",
      id: options.nextId(),
      timestamp: now(),
      callId: call.call.id,
      turn: call.turn,
      payload: {
        ...capContent(payload, options.maxResultBytes ?? DEFAULT_MAX_RESULT),
        durationMs: now() - started,
      },
    };
  } finally {
    clearTimeout(timer);
    signal.removeEventListener("abort", stop);
  }
}

/** A batch runs in parallel; results come back in the calls' order, whatever finishes first. */
export function runBatch(
  calls: readonly CallEvent[],
  options: ExecutorOptions,
): Promise<ResultEvent[]> {
  return Promise.all(calls.map((call) => runCall(call, options)));
}

/** Cuts content whose JSON form is over `max` characters, and says so in the content and the outcome. */
export function capContent<P extends { content: unknown; outcome: string }>(
  payload: P,
  max: number,
): P {
  const text =
    typeof payload.content === "string" ? payload.content : JSON.stringify(payload.content);
  if (text === undefined || text.length <= max) return payload;
  const kept = text.slice(0, max);
  const note = `\n[truncated: ${text.length - max} of ${text.length} characters not shown]`;
  return {
    ...payload,
    content: kept + note,
    outcome: `${payload.outcome} (truncated to ${max} characters)`,
  };
}
