import type { RunLog } from "@/lib/client/run-log";
import { textForm } from "@/lib/runtime/variables";

/** What a `$name` in a response stands for right now. */
export type VariableState =
  | { state: "value"; text: string }
  | { state: "pending" }
  | { state: "unknown" }
  | { state: "failed"; outcome: string };

/** `$web_data`: the names `output_key` accepts (as in the runtime's `VARIABLE_SYNTAX`). */
export const VARIABLE_PATTERN = /\$([A-Za-z_][A-Za-z0-9_]*)/g;

interface KeyIndex {
  scanned: number;
  callByKey: Map<string, string>;
}

const indexes = new WeakMap<RunLog, KeyIndex>();

/** output_key → call id, grown incrementally: the log only appends, so each event is read once. */
function keyIndex(log: RunLog): Map<string, string> {
  let index = indexes.get(log);
  if (index === undefined) {
    index = { scanned: 0, callByKey: new Map() };
    indexes.set(log, index);
  }
  for (; index.scanned < log.events.length; index.scanned++) {
    const event = log.events[index.scanned];
    const key = event?.type === "call" ? event.action?.outputKey : undefined;
    if (event?.type === "call" && key !== undefined && !index.callByKey.has(key))
      index.callByKey.set(key, event.call.id);
  }
  return index.callByKey;
}

/**
 * The state of `$name`: the value's text form once its action succeeded, pending while it
 * runs, failed when it did not succeed, unknown when no action of the run stores that name.
 */
export function resolveVariable(log: RunLog, name: string): VariableState {
  const callId = keyIndex(log).get(name);
  if (callId === undefined) return { state: "unknown" };
  const result = log.resultOf(callId);
  if (result === undefined) return { state: "pending" };
  if (result.payload.status !== "success")
    return { state: "failed", outcome: result.payload.outcome };
  return { state: "value", text: textForm(result.payload.content) };
}
