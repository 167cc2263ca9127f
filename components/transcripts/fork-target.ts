import type { ResultStatus } from "@/lib/protocol";
import type { StoredRecord } from "@/lib/store/store";

/** Where a fork starts, worked out from the stored records (their `seq`s). */
export type ForkTarget =
  | { kind: "user"; at: number; content: string }
  | {
      kind: "call";
      /** The last result of the call's batch: the model continues with every result. */
      at: number;
      callId: string;
      name: string;
      result?: { content: unknown; status: ResultStatus };
    }
  | { kind: "end"; at: number };

/**
 * The fork point for a selected timeline event: a user message forks at itself (to edit it or
 * re-ask it), a call or its result after the whole batch's results (to mock the result, or
 * re-run what follows). Anything else (or nothing) forks at the end of the conversation.
 */
export function forkTargetOf(records: readonly StoredRecord[], eventId: string | null): ForkTarget {
  const end: ForkTarget = { kind: "end", at: records.at(-1)?.seq ?? 0 };
  if (eventId === null) return end;
  const found = records.find((record) => record.kind === "event" && record.event.id === eventId);
  if (found?.kind !== "event" || found.event.parent !== undefined) return end;
  const { event } = found;
  if (event.type === "user") return { kind: "user", at: found.seq, content: event.content };
  const callId =
    event.type === "call" ? event.call.id : event.type === "result" ? event.callId : null;
  if (callId === null) return end;
  return callTarget(records, callId) ?? end;
}

function callTarget(records: readonly StoredRecord[], callId: string): ForkTarget | undefined {
  const call = records.find(
    (record) =>
      record.kind === "event" &&
      record.event.type === "call" &&
      record.event.parent === undefined &&
      record.event.call.id === callId,
  );
  if (call?.kind !== "event" || call.event.type !== "call") return undefined;
  const { turn } = call.event;
  // The batch: the calls of the same top-level turn.
  const batch = new Set<string>();
  for (const record of records)
    if (
      record.kind === "event" &&
      record.event.type === "call" &&
      record.event.parent === undefined &&
      record.event.turn === turn
    )
      batch.add(record.event.call.id);
  let at = call.seq;
  let result: { content: unknown; status: ResultStatus } | undefined;
  for (const record of records) {
    if (record.kind !== "event" || record.event.type !== "result") continue;
    if (record.event.parent !== undefined || !batch.has(record.event.callId)) continue;
    at = Math.max(at, record.seq);
    if (record.event.callId === callId)
      result = { content: record.event.payload.content, status: record.event.payload.status };
  }
  return { kind: "call", at, callId, name: call.event.call.name, ...(result ? { result } : {}) };
}
