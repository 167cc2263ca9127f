/** Test helpers: small transcripts as records, built from turns. Not used by product code. */
import type { ProtocolEvent } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";

export interface TurnSpec {
  raw: string;
  calls?: {
    id: string;
    name: string;
    args: Record<string, unknown>;
    result?: unknown;
    status?: "success" | "failure";
  }[];
  respond?: string;
  error?: string;
}

/** Records of a conversation: each user message followed by its model turns, numbered on. */
export function conversation(exchanges: { user: string; turns: TurnSpec[] }[]): TranscriptRecord[] {
  const records: TranscriptRecord[] = [];
  let turn = 0;
  let id = 0;
  const event = (value: ProtocolEvent) => records.push({ kind: "event", event: value });
  for (const exchange of exchanges) {
    event({ type: "user", id: `u${++id}`, timestamp: id, content: exchange.user });
    for (const spec of exchange.turns) {
      const half = Math.floor(spec.raw.length / 2);
      records.push({ kind: "chunk", turn, t: id, text: spec.raw.slice(0, half) });
      records.push({ kind: "chunk", turn, t: id, text: spec.raw.slice(half) });
      const span = { start: 0, end: spec.raw.length };
      for (const call of spec.calls ?? [])
        event({
          type: "call",
          id: `e${++id}`,
          timestamp: id,
          turn,
          span,
          call: { id: call.id, name: call.name, args: call.args },
        });
      if (spec.respond !== undefined) {
        // Two pieces of one respond block, as the parser streams them.
        const rid = `e${++id}`;
        const cut = Math.floor(spec.respond.length / 2);
        event({
          type: "respond",
          id: rid,
          timestamp: id,
          turn,
          span,
          content: spec.respond.slice(0, cut),
        });
        event({
          type: "respond",
          id: rid,
          timestamp: id,
          turn,
          span,
          content: spec.respond.slice(cut),
        });
      }
      if (spec.error !== undefined)
        event({
          type: "error",
          id: `e${++id}`,
          timestamp: id,
          turn,
          code: "invalid_json",
          message: spec.error,
        });
      event({
        type: "metric",
        id: `e${++id}`,
        timestamp: id,
        turn,
        step: { input: 1, output: 1, durationMs: id, ttftMs: id },
        total: { input: 1, output: 1, durationMs: id },
      });
      for (const call of spec.calls ?? [])
        if (call.result !== undefined)
          event({
            type: "result",
            id: `e${++id}`,
            timestamp: id,
            callId: call.id,
            payload: {
              tool: call.name,
              status: call.status ?? "success",
              content: call.result,
              outcome: "ok",
              durationMs: id,
            },
          });
      turn++;
    }
  }
  return records;
}
