import type { DialectDefinition } from "../protocol/definition";
import { encodeResults, encodeTurn, type WireResult } from "../protocol/encode";
import type { Dialect, ProtocolEvent } from "../protocol/events";
import { mergePieces } from "../protocol/merge";

export interface ContextMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/**
 * Stored events → provider messages (docs/tools-and-context.md): the system prompt, then user
 * messages, assistant messages whose wire text is re-synthesised from the turn's think,
 * call and respond events (calls batched back into one block), and each batch's results as a
 * user message in the dialect's format. Markers are written here, never stored. Pure.
 */
export function assembleContext(
  dialect: Dialect | DialectDefinition,
  system: string,
  events: readonly ProtocolEvent[],
): ContextMessage[] {
  const messages: ContextMessage[] = [{ role: "system", content: system }];
  let turn: ProtocolEvent[] = [];
  let turnIndex: number | undefined;
  let results: WireResult[] = [];
  const flushTurn = () => {
    const content = encodeTurn(dialect, turn);
    if (content.length > 0) messages.push({ role: "assistant", content });
    turn = [];
    turnIndex = undefined;
  };
  const flushResults = () => {
    if (results.length > 0)
      messages.push({ role: "user", content: encodeResults(dialect, results) });
    results = [];
  };
  for (const event of mergePieces(events)) {
    switch (event.type) {
      case "user":
        flushTurn();
        flushResults();
        messages.push({ role: "user", content: event.content });
        break;
      case "think":
      case "call":
      case "respond":
      case "end":
        flushResults();
        if (turn.length > 0 && event.turn !== undefined && event.turn !== turnIndex) flushTurn();
        turn.push(event);
        turnIndex ??= event.turn;
        break;
      case "result":
        flushTurn();
        results.push({ callId: event.callId, payload: event.payload });
        break;
      case "execute":
      case "metric":
      case "error":
      case "interrupt":
        break;
    }
  }
  flushTurn();
  flushResults();
  return messages;
}
