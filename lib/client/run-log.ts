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
 * Everything a run view needs, folded from records as they arrive (docs/http-api.md): events merged
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
  /** What each fold changes, while kept (`keepHistory`). */
  private history: LogHistory | null = null;

  applyRun(transcriptId: string, runId: string): void {
    this.transcriptId = transcriptId;
    this.runId = runId;
    this.version++;
    this.history?.folded(this);
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
      case "request": {
        const turn = this.turn(record.turn);
        this.history?.requests.push({
          version: this.version + 1,
          turn: record.turn,
          before: turn.request,
        });
        turn.request = record;
        break;
      }
    }
    this.version++;
    this.history?.folded(this);
  }

  /**
   * From now on, keeps what each fold changes (`history`, or a new one; null: stops), so
   * `copyAsOf` can copy this log as it was after any later version. A log handed the history
   * of another goes on with it: it must be where that one was.
   */
  keepHistory(history: LogHistory | null = new LogHistory(this)): LogHistory | null {
    this.history = history;
    return history;
  }

  /**
   * A copy of this log as it was at `version` (kept in its history, up to now), that folds on
   * apart from it: the lists are cut back to their lengths then, and what was changed in place
   * since (a merged piece, a turn's request) is taken back. Records and events are shared.
   */
  copyAsOf(version: number): RunLog {
    const history = this.history;
    if (history === null || version < history.start || version > this.version)
      throw new RangeError(`No history of this log at version ${version}.`);
    const { events: eventCount, chunks: chunkCount } = history.at(version);
    const copy = new RunLog();
    copy.version = version;
    copy.transcriptId = this.transcriptId;
    copy.runId = this.runId;
    for (let at = 0; at < eventCount; at++) copy.events.push(this.events[at] as ProtocolEvent);
    history.takeBackMerges(copy.events, version);
    for (let at = 0; at < chunkCount; at++) copy.chunks.push(this.chunks[at] as ChunkEntry);
    copy.events.forEach((event, at) => {
      copy.index.set(event.id, at);
      if (event.type === "call") copy.calls.set(event.call.id, event);
      if (event.type === "result") copy.results.set(event.callId, event);
      if (event.parent !== undefined) {
        const list = copy.children.get(event.parent) ?? [];
        list.push(event.id);
        copy.children.set(event.parent, list);
      }
    });
    const requests = history.requestsAsOf(version);
    for (const [turn, log] of this.turns) {
      if (history.bornAfter(turn, version)) continue;
      const chunks = prefixWhile(log.chunks, (chunk) => chunk.index < chunkCount);
      const last = chunks.at(-1);
      const copied: TurnLog = {
        turn,
        raw: last === undefined ? "" : log.raw.slice(0, last.offset + last.text.length),
        chunks,
        events: prefixWhile(log.events, (id) => (this.index.get(id) ?? eventCount) < eventCount),
      };
      const request = requests.has(turn) ? requests.get(turn) : log.request;
      if (request !== undefined) copied.request = request;
      copy.turns.set(turn, copied);
    }
    return copy;
  }

  /**
   * A copy that folds on apart from this one (`bench/replay-seek.ts` times folding on from
   * one against a seek back's `copyAsOf`): the lists and maps are
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
        this.history?.merged(this.version + 1, at, existing);
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
      this.history?.born.set(turn, this.version + 1);
    }
    return log;
  }
}

/**
 * What folding changed in a log from the version it was begun at (`start`): its counts of
 * events and chunks after each version (the lists only grow), and what a fold changed in place
 * (a merged piece replaces its event: its content before and span before; a turn's request).
 * Numbers, not copies: a few per record.
 */
export class LogHistory {
  readonly start: number;
  /** Events and chunks after each version from `start`, two numbers a version. */
  private readonly counts: number[] = [];
  /** Five numbers a merge: version, place, content length before, span start and end before. */
  private readonly merges: number[] = [];
  readonly requests: { version: number; turn: number; before: RequestRecord | undefined }[] = [];
  /** The version each turn came in at (turns from before `start`: absent). */
  readonly born = new Map<number, number>();

  constructor(log: RunLog) {
    this.start = log.version;
    this.folded(log);
  }

  /** `log` reached its next version. */
  folded(log: RunLog): void {
    this.counts.push(log.events.length, log.chunks.length);
  }

  merged(version: number, at: number, before: ProtocolEvent): void {
    if (before.type !== "think" && before.type !== "respond") return;
    this.merges.push(version, at, before.content.length, before.span.start, before.span.end);
  }

  at(version: number): { events: number; chunks: number } {
    const offset = (version - this.start) * 2;
    return { events: this.counts[offset] ?? 0, chunks: this.counts[offset + 1] ?? 0 };
  }

  bornAfter(turn: number, version: number): boolean {
    return (this.born.get(turn) ?? this.start) > version;
  }

  /** Puts back in `events` (a log's, cut to `version`'s length) each piece merged after it. */
  takeBackMerges(events: ProtocolEvent[], version: number): void {
    // The latest first: each event ends as it was before the first merge after `version`.
    for (let offset = this.merges.length - 5; offset >= 0; offset -= 5) {
      if ((this.merges[offset] as number) <= version) break;
      const at = this.merges[offset + 1] as number;
      const event = events[at];
      if (event === undefined || (event.type !== "think" && event.type !== "respond")) continue;
      events[at] = {
        ...event,
        content: event.content.slice(0, this.merges[offset + 2]),
        span: { start: this.merges[offset + 3] as number, end: this.merges[offset + 4] as number },
      };
    }
  }

  /** The request each turn had at `version`, for the turns whose request changed after it. */
  requestsAsOf(version: number): Map<number, RequestRecord | undefined> {
    const before = new Map<number, RequestRecord | undefined>();
    for (let index = this.requests.length - 1; index >= 0; index--) {
      const change = this.requests[index] as LogHistory["requests"][number];
      if (change.version <= version) break;
      before.set(change.turn, change.before);
    }
    return before;
  }
}

/** The first items of `list` while `keep` holds (lists in the order they grew). */
function prefixWhile<T>(list: readonly T[], keep: (item: T) => boolean): T[] {
  const out: T[] = [];
  for (const item of list) {
    if (!keep(item)) break;
    out.push(item);
  }
  return out;
}

export function spanOf(event: ProtocolEvent | undefined): Span | undefined {
  return event !== undefined && "span" in event ? event.span : undefined;
}

export function turnOf(event: ProtocolEvent): number | undefined {
  return "turn" in event ? event.turn : undefined;
}
