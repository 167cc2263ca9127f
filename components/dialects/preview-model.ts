import {
  createParser,
  type DialectDefinition,
  type EventType,
  mergePieces,
  type ProtocolEvent,
} from "@/lib/protocol";

/** One merged event of the sample, as the preview lists it. */
export interface PreviewRow {
  id: string;
  type: EventType;
  text: string;
  start: number;
  end: number;
}

/** A run of the sample text and the event type whose span holds it (innermost wins), or null. */
export interface PreviewSegment {
  text: string;
  start: number;
  type: EventType | null;
}

/** Longest sample the live preview parses; the rest is not shown (the parser has no such limit). */
export const MAX_SAMPLE = 20_000;

/**
 * Parses `sample` with the definition (fed in small chunks, as a model streams it) and
 * returns the merged events and the text cut into segments by the events' spans.
 */
export function previewOf(
  definition: DialectDefinition,
  sample: string,
): { rows: PreviewRow[]; segments: PreviewSegment[] } {
  const text = sample.slice(0, MAX_SAMPLE);
  const parser = createParser(definition);
  const events: ProtocolEvent[] = [];
  for (let at = 0; at < text.length; at += 16) events.push(...parser.feed(text.slice(at, at + 16)));
  events.push(...parser.end());
  const merged = mergePieces(events);
  const rows = merged.flatMap((event): PreviewRow[] => {
    const span = "span" in event ? event.span : undefined;
    if (span === undefined) return [];
    return [{ id: event.id, type: event.type, text: rowText(event), ...span }];
  });
  return { rows, segments: segmentsOf(text, rows) };
}

function rowText(event: ProtocolEvent): string {
  switch (event.type) {
    case "think":
    case "respond":
      return event.content;
    case "call":
      return `${event.call.name} ${JSON.stringify(event.call.args)}`;
    case "error":
      return `${event.code}: ${event.message}`;
    default:
      return "";
  }
}

/** Paints wider spans first, so a call inside its batch keeps its own colour. */
function segmentsOf(text: string, rows: readonly PreviewRow[]): PreviewSegment[] {
  const owner: (EventType | null)[] = new Array(text.length).fill(null);
  const bySize = [...rows].sort((a, b) => b.end - b.start - (a.end - a.start));
  for (const row of bySize) owner.fill(row.type, row.start, Math.min(row.end, text.length));
  const segments: PreviewSegment[] = [];
  let start = 0;
  for (let i = 1; i <= text.length; i++) {
    if (i < text.length && owner[i] === owner[start]) continue;
    segments.push({ text: text.slice(start, i), start, type: owner[start] ?? null });
    start = i;
  }
  return segments;
}
