import type { CallEvent, ProtocolEvent, ResultEvent, Span } from "../protocol/events";
import type { RequestRecord, TranscriptRecord } from "../protocol/records";

/** A raw chunk as the Chunks view shows it: where it sits in its turn's raw text. */
export interface ChunkEntry {
  turn: number;
  t: number;
  text: string;
  /** Offset of the chunk's first character in its turn's raw text. */
  offset: number;
  index: number;
}

export interface TurnLog {
  turn: number;
  /** All chunks of the turn concatenated: what every span of the turn points into. */
  raw: string;
  chunks: ChunkEntry[];
  request?: RequestRecord;
  /** Ids of the events whose spans point into this turn's raw text. */
  events: string[];
}

/**
 * Everything a run view needs, folded from records as they arrive (spec §9): events merged
 * by id (think/respond pieces joined), each turn's raw text and chunks, requests, and the
 * result of each call. Mutable for speed — a long run has thousands of records — with a
 * `version` that changes on every fold so a UI store can tell that it changed. Never parses
 * wire text: it folds the events it is given.
 */
export class RunLog {
  version = 0;
  transcriptId: string | null = null;
  runId: string | null = null;
  /** Merged events in order of first appearance. */
  readonly events: ProtocolEvent[] = [];
  readonly turns = new Map<number, TurnLog>();
  readonly chunks: ChunkEntry[] = [];
  private readonly index = new Map<string, number>();
  private readonly results = new Map<string, ResultEvent>();
  private readonly calls = new Map<string, CallEvent>();
  private readonly children = new Map<string, string[]>();

  applyRun(transcriptId: string, runId: string): void {
    this.transcriptId = transcriptId;
    this.runId = runId;
    this.version++;
  }

  apply(record: TranscriptRecord): void {
    switch (record.kind) {
      case "event":
        this.applyEvent(record.event);
        break;
      case "chunk": {
        const turn = this.turn(record.turn);
        const entry = {
          turn: record.turn,
          t: record.t,
          text: record.text,
          offset: turn.raw.length,
          index: this.chunks.length,
        };
        turn.raw += record.text;
        turn.chunks.push(entry);
        this.chunks.push(entry);
        break;
      }
      case "request":
        this.turn(record.turn).request = record;
        break;
    }
    this.version++;
  }

  /**
   * A copy that folds on apart from this one (replay's checkpoints): the lists and maps are
   * copied, the records and events they hold are shared (folding never changes one in place:
   * a merged piece replaces its event).
   */
  clone(): RunLog {
    const copy = new RunLog();
    copy.version = this.version;
    copy.transcriptId = this.transcriptId;
    copy.runId = this.runId;
    for (const event of this.events) copy.events.push(event);
    for (const [turn, log] of this.turns)
      copy.turns.set(turn, { ...log, chunks: [...log.chunks], events: [...log.events] });
    for (const chunk of this.chunks) copy.chunks.push(chunk);
    for (const [id, at] of this.index) copy.index.set(id, at);
    for (const [id, event] of this.results) copy.results.set(id, event);
    for (const [id, event] of this.calls) copy.calls.set(id, event);
    for (const [id, list] of this.children) copy.children.set(id, [...list]);
    return copy;
  }

  get(id: string): ProtocolEvent | undefined {
    const at = this.index.get(id);
    return at === undefined ? undefined : this.events[at];
  }

  resultOf(callId: string): ResultEvent | undefined {
    return this.results.get(callId);
  }

  callOf(callId: string): CallEvent | undefined {
    return this.calls.get(callId);
  }

  /** Events of a nested sub-agent run, under the call that started it. */
  childrenOf(callId: string): ProtocolEvent[] {
    return (this.children.get(callId) ?? []).flatMap((id) => {
      const event = this.get(id);
      return event === undefined ? [] : [event];
    });
  }

  /** The event whose span covers `offset` in `turn`'s raw text; the innermost (shortest) wins. */
  eventAt(turn: number, offset: number): ProtocolEvent | undefined {
    let best: ProtocolEvent | undefined;
    let bestLength = Number.POSITIVE_INFINITY;
    for (const id of this.turns.get(turn)?.events ?? []) {
      const event = this.get(id);
      const span = spanOf(event);
      if (event === undefined || span === undefined) continue;
      if (offset < span.start || offset >= span.end) continue;
      const length = span.end - span.start;
      if (length < bestLength) {
        best = event;
        bestLength = length;
      }
    }
    return best;
  }

  private applyEvent(event: ProtocolEvent): void {
    const at = this.index.get(event.id);
    const existing = at === undefined ? undefined : this.events[at];
    if (existing !== undefined && at !== undefined) {
      if (
        (existing.type === "think" || existing.type === "respond") &&
        existing.type === event.type
      ) {
        this.events[at] = {
          ...existing,
          content: existing.content + event.content,
          span: {
            start: Math.min(existing.span.start, event.span.start),
            end: Math.max(existing.span.end, event.span.end),
          },
        };
      }
      return;
    }
    this.index.set(event.id, this.events.length);
    this.events.push(event);
    if (event.type === "call") this.calls.set(event.call.id, event);
    if (event.type === "result") this.results.set(event.callId, event);
    if (event.parent !== undefined) {
      const list = this.children.get(event.parent) ?? [];
      list.push(event.id);
      this.children.set(event.parent, list);
    }
    const turn = turnOf(event);
    if (turn !== undefined && spanOf(event) !== undefined) this.turn(turn).events.push(event.id);
  }

  private turn(turn: number): TurnLog {
    let log = this.turns.get(turn);
    if (log === undefined) {
      log = { turn, raw: "", chunks: [], events: [] };
      this.turns.set(turn, log);
    }
    return log;
  }
}

export function spanOf(event: ProtocolEvent | undefined): Span | undefined {
  return event !== undefined && "span" in event ? event.span : undefined;
}

export function turnOf(event: ProtocolEvent): number | undefined {
  return "turn" in event ? event.turn : undefined;
}
