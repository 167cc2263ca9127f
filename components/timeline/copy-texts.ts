import type { RunLog } from "@/lib/client/run-log";
import type { EventOf, EventType, ProtocolEvent } from "@/lib/protocol";
import { contentText } from "./format";

/** One copy button on a card: its accessible name and the text it copies (read on click). */
export interface CopyText {
  label: string;
  text: () => string;
}

type Texts<T extends EventType> = (event: EventOf<T>, log: RunLog) => CopyText[];

const none = (): CopyText[] => [];

/**
 * What a person copies from each kind of card, besides the event's JSON. A `Record` over
 * `EventType`, so a new event type has to say what it offers.
 */
const TEXTS: { [T in EventType]: Texts<T> } = {
  user: (event) => [{ label: "Copy message", text: () => event.content }],
  think: (event) => [{ label: "Copy reasoning", text: () => event.content }],
  call: (event, log) => {
    const result = log.resultOf(event.call.id);
    const args = { label: "Copy arguments", text: () => JSON.stringify(event.call.args, null, 2) };
    return result === undefined
      ? [args]
      : [args, { label: "Copy result", text: () => contentText(result.payload.content) }];
  },
  execute: none,
  result: (event) => [{ label: "Copy result", text: () => contentText(event.payload.content) }],
  respond: (event) => [{ label: "Copy answer", text: () => event.content }],
  end: none,
  metric: none,
  error: (event) => [{ label: "Copy error", text: () => event.raw ?? event.message }],
  interrupt: none,
};

/** The card's copy texts, then its event as JSON. */
export function copyTexts(event: ProtocolEvent, log: RunLog): CopyText[] {
  const texts = (TEXTS[event.type] as Texts<EventType>)(event as never, log);
  return [...texts, { label: "Copy event JSON", text: () => JSON.stringify(event, null, 2) }];
}
