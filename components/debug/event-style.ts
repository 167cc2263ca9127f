import type { EventType } from "@/lib/protocol";

/** The colour of each event type's badge; a new type fails to compile until it has one. */
export const EVENT_BADGE: Record<EventType, string> = {
  user: "text-fg border-border",
  think: "text-fg-muted border-border",
  call: "text-info border-info/40",
  execute: "text-info border-info/40",
  result: "text-accent border-accent/40",
  respond: "text-fg border-border",
  end: "text-fg-subtle border-border",
  metric: "text-fg-subtle border-border",
  error: "text-danger border-danger/50",
  interrupt: "text-warn border-warn/50",
};
