import type { RunLog } from "@/lib/client/run-log";
import type { ActionType } from "@/lib/protocol";
import { textForm, variableValue } from "@/lib/runtime/variables";

/** What a `$name` in a response stands for right now. */
export type VariableState =
  | { state: "value"; text: string }
  | { state: "pending" }
  | { state: "unknown" }
  | { state: "failed"; outcome: string };

/** `$web_data`: the names `output_key` accepts (as in the runtime's `VARIABLE_SYNTAX`). */
export const VARIABLE_PATTERN = /\$([A-Za-z_][A-Za-z0-9_]*)/g;

interface KeyedCall {
  callId: string;
  type: ActionType;
}

interface KeyIndex {
  scanned: number;
  callByKey: Map<string, KeyedCall>;
}

const indexes = new WeakMap<RunLog, KeyIndex>();

/** output_key → call id, grown incrementally: the log only appends, so each event is read once. */
function keyIndex(log: RunLog): Map<string, KeyedCall> {
  let index = indexes.get(log);
  if (index === undefined) {
    index = { scanned: 0, callByKey: new Map() };
    indexes.set(log, index);
  }
  for (; index.scanned < log.events.length; index.scanned++) {
    const event = log.events[index.scanned];
    if (event?.type !== "call" || event.action === undefined) continue;
    const key = event.action.outputKey;
    if (key !== undefined && !index.callByKey.has(key))
      index.callByKey.set(key, { callId: event.call.id, type: event.action.type });
  }
  return index.callByKey;
}

/**
 * The state of `$name`: the value's text form once its action succeeded, pending while it
 * runs, failed when it did not succeed, unknown when no action of the run stores that name.
 */
export function resolveVariable(log: RunLog, name: string): VariableState {
  const keyed = keyIndex(log).get(name);
  if (keyed === undefined) return { state: "unknown" };
  const result = log.resultOf(keyed.callId);
  if (result === undefined) return { state: "pending" };
  const { payload } = result;
  if (payload.status !== "success") return { state: "failed", outcome: payload.outcome };
  return {
    state: "value",
    text: textForm(variableValue(keyed.type, payload.tool, payload.content)),
  };
}
