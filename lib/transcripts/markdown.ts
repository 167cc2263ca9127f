import type { RunSummary } from "../metrics/types";
import { dialectLabel, dialectOf } from "../protocol/definition";
import {
  assertNever,
  type CallEvent,
  type ProtocolEvent,
  type ResultEvent,
} from "../protocol/events";
import type { RequestRecord, TranscriptRecord } from "../protocol/records";
import { resolveText, variableValue } from "../runtime/variables";
import type { TranscriptMeta } from "../store/store";
import { perTurnMarkdown, summaryLine } from "./file-summary";
import { prettyJson } from "./pretty-json";

export interface MarkdownOptions {
  /** Think blocks, as block quotes (default on). */
  reasoning?: boolean;
  /** Calls as fenced JSON, each followed by its result (default on). */
  tools?: boolean;
  /** What was sent to the model for each turn, as fenced JSON (default off). */
  requests?: boolean;
  /** Parser and runtime errors, and interrupts (default on). */
  errors?: boolean;
  /** The run summary (`lib/metrics`): a line under the title and a per-turn table at the end. */
  summary?: RunSummary;
}

type Item =
  | { kind: "event"; event: ProtocolEvent; runId?: string }
  | { kind: "request"; record: RequestRecord };

/** A record as stored: `runId` says which run wrote it (call ids repeat across runs). */
type MarkdownRecord = TranscriptRecord & { runId?: string };

/**
 * A transcript as readable Markdown: `## User` / `## Assistant` sections, reasoning as block
 * quotes, each call as fenced JSON with its result. User and model text are written as they
 * are (they are Markdown already); fences grow past any backticks inside them. A sub-agent's
 * own turns are left out: its answer is the result of the call that started it.
 */
export function exportMarkdown(
  transcript: { meta: TranscriptMeta; records: readonly MarkdownRecord[] },
  options: MarkdownOptions = {},
): string {
  return [...markdownParts(transcript, options)].join("");
}

/** `exportMarkdown` a few blocks at a time, for a response that streams. */
export function* markdownParts(
  transcript: { meta: TranscriptMeta; records: readonly MarkdownRecord[] },
  options: MarkdownOptions = {},
): Generator<string> {
  const { reasoning = true, tools = true, requests = false, errors = true } = options;
  const { meta } = transcript;
  const items = mergedItems(transcript.records);
  const { results, answered } = pairResults(items);

  // `$name` in action responses reads as on the page: the value's text form once it is known.
  const variables = meta.dialect === "action" ? variablesOf(items, results) : new Map();
  const blocks: string[] = [`# ${oneLine(meta.title)}`, describeMeta(meta)];
  if (options.summary !== undefined) blocks.push(summaryLine(options.summary));
  let section: "user" | "assistant" | undefined;
  const assistant = () => {
    if (section !== "assistant") blocks.push("## Assistant");
    section = "assistant";
  };
  let separator = "";
  function* flush(): Generator<string> {
    if (blocks.length === 0) return;
    yield `${separator}${blocks.join("\n\n")}`;
    separator = "\n\n";
    blocks.length = 0;
  }
  for (const item of items) {
    yield* flush();
    if (item.kind === "request") {
      if (!requests) continue;
      const { record } = item;
      blocks.push(
        `### Request · turn ${record.turn} · ${record.provider}/${record.model}`,
        fenced(prettyJson({ messages: record.messages, settings: record.settings }), "json"),
      );
      continue;
    }
    const { event } = item;
    switch (event.type) {
      case "user":
        blocks.push("## User", event.content);
        section = "user";
        break;
      case "think":
        if (!reasoning || event.content.trim() === "") break;
        assistant();
        blocks.push(quote(`**Reasoning**\n\n${event.content}`));
        break;
      case "respond":
        if (event.content.trim() === "") break;
        assistant();
        blocks.push(
          variables.size === 0 ? event.content : resolveText(event.content, variables).text,
        );
        break;
      case "call":
        if (!tools) break;
        assistant();
        blocks.push(...callBlocks(event, results.get(event)));
        break;
      case "result":
        // Results follow their call; one without a call answers a malformed call block.
        if (!tools || answered.has(event)) break;
        assistant();
        blocks.push(...resultBlocks("Malformed call", event));
        break;
      case "error":
        if (!errors) break;
        blocks.push(quote(`**Error** \`${event.code}\`: ${event.message}`));
        break;
      case "interrupt":
        if (errors) blocks.push(quote(`**Interrupted** (${event.reason})`));
        break;
      case "execute":
      case "end":
      case "metric":
        break;
      default:
        return assertNever(event, "event");
    }
  }
  if (options.summary !== undefined && options.summary.turns > 0) {
    blocks.push(perTurnMarkdown(options.summary));
  }
  yield* flush();
  yield "\n";
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

function callBlocks(event: CallEvent, result: ResultEvent | undefined): string[] {
  const { call, action } = event;
  const mode = action === undefined ? "" : ` · ${action.type}, ${action.mode}`;
  const blocks = [
    `**Call** \`${call.name}\` · \`${call.id}\`${mode}`,
    fenced(prettyJson(call.args), "json"),
  ];
  if (result === undefined) return [...blocks, "_No result._"];
  return [...blocks, ...resultBlocks("Result", result)];
}

function resultBlocks(label: string, result: ResultEvent): string[] {
  const { payload } = result;
  const heading = `**${label}** · ${payload.status} · ${Math.round(payload.durationMs)} ms — ${oneLine(payload.outcome)}`;
  const content = payload.content;
  if (content === undefined || content === "") return [heading];
  if (typeof content === "string") return [heading, fenced(content, "text")];
  return [heading, fenced(prettyJson(content), "json")];
}

function describeMeta(meta: TranscriptMeta): string {
  const created = Number.isFinite(meta.createdAt) ? new Date(meta.createdAt).toISOString() : "?";
  const line = `Dialect \`${dialectLabel(dialectOf(meta))}\` · model \`${meta.model.provider}/${meta.model.id}\` · created ${created}`;
  if (meta.parentId === undefined) return line;
  const point = meta.forkPoint === undefined ? "" : ` after record ${meta.forkPoint}`;
  return `${line}  \nForked from \`${meta.parentId}\`${point}.`;
}

/** A code fence longer than any run of backticks in `text`, so nothing inside can close it. */
export function fenced(text: string, language: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text}\n${fence}`;
}

function quote(text: string): string {
  return text
    .split("\n")
    .map((line) => (line === "" ? ">" : `> ${line}`))
    .join("\n");
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();
