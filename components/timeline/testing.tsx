import { cleanup, render } from "@testing-library/react";
import { RunLog } from "@/lib/client/run-log";
import type { ProtocolEvent } from "@/lib/protocol";
import { usePlayground } from "@/state/playground-store";
import { CardMemoryProvider } from "./card-memory";
import { EventCard } from "./event-card";

/** Test helpers: events with defaults, a store holding a log of them, a card rendered from it. */
const SPAN = { start: 0, end: 1 };

export const make = {
  user: (content: string, id = "u1"): ProtocolEvent => ({
    type: "user",
    id,
    timestamp: 0,
    content,
  }),
  think: (content: string, id = "t1"): ProtocolEvent => ({
    type: "think",
    id,
    timestamp: 0,
    turn: 0,
    span: SPAN,
    content,
  }),
  respond: (content: string, id = "r1"): ProtocolEvent => ({
    type: "respond",
    id,
    timestamp: 0,
    turn: 0,
    span: SPAN,
    content,
  }),
  call: (
    callId: string,
    name: string,
    args: Record<string, unknown>,
    extra: Partial<Extract<ProtocolEvent, { type: "call" }>> = {},
  ): ProtocolEvent => ({
    type: "call",
    id: `e-${callId}`,
    timestamp: 0,
    turn: 0,
    span: SPAN,
    call: { id: callId, name, args },
    ...extra,
  }),
  result: (
    callId: string,
    status: "success" | "failure" | "skipped",
    content: unknown,
    outcome: string,
    tool = "list",
  ): ProtocolEvent => ({
    type: "result",
    id: `res-${callId}`,
    timestamp: 0,
    callId,
    payload: { tool, status, content, outcome, durationMs: 42 },
  }),
};

/** Puts `events` into a fresh log in the store, as a run would. */
export function loadLog(
  events: ProtocolEvent[],
  state: Partial<ReturnType<typeof usePlayground.getState>> = {},
): RunLog {
  const log = new RunLog();
  for (const event of events) log.apply({ kind: "event", event });
  usePlayground.setState({ log, version: log.version, status: "done", ...state });
  return log;
}

/** Adds events to the store's log and tells subscribers. */
export function append(...events: ProtocolEvent[]): void {
  const { log } = usePlayground.getState();
  for (const event of events) log.apply({ kind: "event", event });
  usePlayground.setState({ version: log.version });
}

/** Renders the card of `event`, following the store as a timeline row would. */
export function renderCard(event: ProtocolEvent) {
  return render(
    <CardMemoryProvider>
      <CardById fallback={event} />
    </CardMemoryProvider>,
  );
}

function CardById({ fallback }: { fallback: ProtocolEvent }) {
  usePlayground((state) => state.version);
  const current = usePlayground((state) => state.log.get(fallback.id)) ?? fallback;
  return <EventCard event={current} />;
}

export { cleanup };
