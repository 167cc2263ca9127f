import type { EventType, ProtocolEvent } from "@/lib/protocol";
import type { TimedRecord } from "@/lib/replay/timeline";

export type MarkTone = "error" | "call" | "user" | "plain";

/** How each event type shows on the scrubber: errors and tool calls stand out. */
const TONE: Record<EventType, MarkTone> = {
  user: "user",
  think: "plain",
  call: "call",
  execute: "plain",
  result: "plain",
  respond: "plain",
  end: "plain",
  metric: "plain",
  error: "error",
  interrupt: "error",
};

/** When two events share a pixel, the one that matters more is drawn. */
const PRIORITY: Record<MarkTone, number> = { error: 3, call: 2, user: 1, plain: 0 };

export interface ReplayMark {
  /** 0..1 along the scrubber. */
  position: number;
  /** ms on the replay's clock. */
  at: number;
  tone: MarkTone;
  /** What the mark stands for ("call list", "error invalid_json"), for its tooltip. */
  label: string;
  /** Events drawn as this one mark. */
  count: number;
}

export function toneOf(event: ProtocolEvent): MarkTone {
  if (event.type === "result" && event.payload.status === "failure") return "error";
  return TONE[event.type];
}

function labelOf(event: ProtocolEvent): string {
  switch (event.type) {
    case "call":
      return `call ${event.call.name}`;
    case "result":
      return `result ${event.payload.tool} (${event.payload.status})`;
    case "error":
      return `error ${event.code}`;
    default:
      return event.type;
  }
}

/**
 * One mark per event of the first `count` entries (its first record; streamed pieces share an id) at its time on the
 * replay's clock. Events closer than one of `buckets` share a mark, showing the weightiest
 * tone, so a run of thousands of events draws a few hundred marks at most.
 */
export function replayMarks(
  entries: readonly TimedRecord[],
  duration: number,
  count = entries.length,
  buckets = 600,
): ReplayMark[] {
  const seen = new Set<string>();
  const byBucket = new Map<number, ReplayMark>();
  for (let index = 0; index < Math.min(count, entries.length); index++) {
    const { at, record } = entries[index] as TimedRecord;
    if (record.kind !== "event" || seen.has(record.event.id)) continue;
    seen.add(record.event.id);
    const position = duration > 0 ? Math.min(1, Math.max(0, at / duration)) : 0;
    const bucket = Math.round(position * buckets);
    const tone = toneOf(record.event);
    const existing = byBucket.get(bucket);
    if (existing === undefined) {
      byBucket.set(bucket, { position, at, tone, label: labelOf(record.event), count: 1 });
    } else {
      existing.count++;
      if (PRIORITY[tone] > PRIORITY[existing.tone]) {
        existing.tone = tone;
        existing.label = labelOf(record.event);
      }
    }
  }
  return [...byBucket.values()].sort((a, b) => a.position - b.position);
}
