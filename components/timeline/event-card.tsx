"use client";

import { type ComponentType, memo } from "react";
import type { EventOf, EventType, ProtocolEvent } from "@/lib/protocol";
import { CallCard } from "./cards/call-card";
import { EndCard } from "./cards/end-card";
import { ErrorCard } from "./cards/error-card";
import { ExecuteCard } from "./cards/execute-card";
import { InterruptCard } from "./cards/interrupt-card";
import { MetricCard } from "./cards/metric-card";
import { RespondCard } from "./cards/respond-card";
import { ResultCard } from "./cards/result-card";
import { ThinkCard } from "./cards/think-card";
import { UserCard } from "./cards/user-card";

export type CardComponent<T extends EventType> = ComponentType<{ event: EventOf<T> }>;

/**
 * The card for each event type. A `Record` over `EventType` (each key typed to its own event),
 * so a new event type fails to compile until it has a card.
 */
export const CARDS: { [T in EventType]: CardComponent<T> } = {
  user: UserCard,
  think: ThinkCard,
  call: CallCard,
  execute: ExecuteCard,
  result: ResultCard,
  respond: RespondCard,
  end: EndCard,
  metric: MetricCard,
  error: ErrorCard,
  interrupt: InterruptCard,
};

function cardFor<T extends EventType>(type: T): CardComponent<T> {
  return CARDS[type];
}

/** The card for one event. Merged pieces are new objects, so an unchanged event skips rendering. */
export const EventCard = memo(function EventCard({ event }: { event: ProtocolEvent }) {
  const Card = cardFor(event.type) as CardComponent<EventType>;
  return <Card event={event as never} />;
});
