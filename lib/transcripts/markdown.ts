import type { CallEvent, ProtocolEvent, ResultEvent } from "../protocol/events";
import type { RequestRecord, TranscriptRecord } from "../protocol/records";
import { variableValue } from "../runtime/variables";
import type { TranscriptMeta } from "../store/store";
import { type MarkdownItem, type MarkdownOptions, MarkdownWriter } from "./markdown-render";

export { fenced, type MarkdownOptions } from "./markdown-render";

type Item =
  | { kind: "event"; event: ProtocolEvent; runId?: string }
  | { kind: "request"; record: RequestRecord };

/** A record as stored: `runId` says which run wrote it (call ids repeat across runs). */
type MarkdownRecord = TranscriptRecord & { runId?: string };

/**
 * A transcript as readable Markdown: `## User` / `## Assistant` sections, reasoning as block
 * quotes, each call as fenced JSON with its result. User and model text are written as they
 * are (they are Markdown already); fences grow past any backticks inside them. A sub-agent's
 * own turns are left out: its answer is the result of the call that started it. Holds the
 * whole transcript: the export route streams from the store instead (`markdown-pages.ts`),
 * and its tests check it writes exactly this.
 */
export function exportMarkdown(
  transcript: { meta: TranscriptMeta; records: readonly MarkdownRecord[] },
  options: MarkdownOptions = {},
): string {
  return [...markdownParts(transcript, options)].join("");
}

/** `exportMarkdown` a few blocks at a time. */
export function* markdownParts(
  transcript: { meta: TranscriptMeta; records: readonly MarkdownRecord[] },
  options: MarkdownOptions = {},
): Generator<string> {
  const { meta } = transcript;
  const items = mergedItems(transcript.records);
  const { results, answered } = pairResults(items);
  const variables = meta.dialect === "action" ? variablesOf(items, results) : new Map();
  const writer = new MarkdownWriter(meta, options, variables);
  for (const item of items) yield* writer.item(paired(item, results, answered));
  yield* writer.end();
}

function paired(
  item: Item,
  results: ReadonlyMap<CallEvent, ResultEvent>,
  answered: ReadonlySet<ResultEvent>,
): MarkdownItem {
  if (item.kind === "request") return item;
  const { event } = item;
  if (event.type === "call") {
    const result = results.get(event);
    return result === undefined ? { kind: "event", event } : { kind: "event", event, result };
  }
  if (event.type === "result") return { kind: "event", event, answered: answered.has(event) };
  return { kind: "event", event };
}

/**
 * Each call's result: of the calls before it with its id and no result yet, the last one in the
 * same run and turn, else in the same run, else any (a fork's edited result answers a call
 * of the run it was forked from). Call ids repeat across runs (the action dialect's `call1`
 * in every run) and turns, so pairing by id alone gives one result to several calls.
 */
function pairResults(items: readonly Item[]): {
  results: Map<CallEvent, ResultEvent>;
  answered: Set<ResultEvent>;
} {
  const results = new Map<CallEvent, ResultEvent>();
  const answered = new Set<ResultEvent>();
  const waiting = new Map<string, { call: CallEvent; runId: string }[]>();
  for (const item of items) {
    if (item.kind !== "event") continue;
    const { event, runId = "" } = item;
    if (event.type === "call") {
      const calls = waiting.get(event.call.id) ?? [];
      calls.push({ call: event, runId });
      waiting.set(event.call.id, calls);
    } else if (event.type === "result") {
      const calls = waiting.get(event.callId) ?? [];
      const sameRun = (index: number) => calls[index]?.runId === runId;
      const sameTurn = (index: number) =>
        event.turn === undefined || calls[index]?.call.turn === event.turn;
      const index = [
        lastIndex(calls.length, (at) => sameRun(at) && sameTurn(at)),
        lastIndex(calls.length, sameRun),
        calls.length - 1,
      ].find((at) => at >= 0);
      const found = index === undefined ? undefined : calls[index];
      if (index === undefined || found === undefined) continue;
      calls.splice(index, 1);
      results.set(found.call, event);
      answered.add(event);
    }
  }
  return { results, answered };
}

function lastIndex(length: number, test: (index: number) => boolean): number {
  for (let index = length - 1; index >= 0; index--) if (test(index)) return index;
  return -1;
}

/** `output_key` → value, from each key's first call whose result succeeded (as the timeline). */
function variablesOf(
  items: readonly Item[],
  results: ReadonlyMap<CallEvent, ResultEvent>,
): Map<string, unknown> {
  const variables = new Map<string, unknown>();
  const seen = new Set<string>();
  for (const item of items) {
    if (item.kind !== "event" || item.event.type !== "call") continue;
    const { action } = item.event;
    const key = action?.outputKey;
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    const result = results.get(item.event);
    if (result?.payload.status !== "success") continue;
    const { tool, content } = result.payload;
    variables.set(key, variableValue(action?.type, tool, content));
  }
  return variables;
}

/** Requests and top-level events in order of first appearance, think/respond pieces joined. */
function mergedItems(records: readonly MarkdownRecord[]): Item[] {
  const items: Item[] = [];
  const pieces = new Map<string, { event: ProtocolEvent }>();
  for (const record of records) {
    if (record.kind === "request") items.push({ kind: "request", record });
    if (record.kind !== "event" || record.event.parent !== undefined) continue;
    const { event } = record;
    const run = record.runId === undefined ? {} : { runId: record.runId };
    if (event.type !== "think" && event.type !== "respond") {
      items.push({ kind: "event", event, ...run });
      continue;
    }
    const open = pieces.get(event.id);
    if (open !== undefined && open.event.type === event.type) {
      open.event = { ...open.event, content: open.event.content + event.content };
      continue;
    }
    const item: Item & { kind: "event" } = { kind: "event", event: { ...event }, ...run };
    pieces.set(event.id, item);
    items.push(item);
  }
  return items;
}
