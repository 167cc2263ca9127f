import type { RunSummary } from "../metrics/types";
import { dialectLabel, dialectOf } from "../protocol/definition";
import {
  assertNever,
  type CallEvent,
  type ProtocolEvent,
  type ResultEvent,
} from "../protocol/events";
import type { RequestRecord } from "../protocol/records";
import { resolveText } from "../runtime/variables";
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

/**
 * What the Markdown shows, in order: a request, or a top-level event (think/respond pieces
 * already joined) with what pairing found: a call's result, whether a result answers a call.
 */
export type MarkdownItem =
  | { kind: "event"; event: ProtocolEvent; result?: ResultEvent; answered?: boolean }
  | { kind: "request"; record: RequestRecord };

/**
 * Writes the Markdown of items handed over in order, a few blocks at a time: the title and
 * meta first, each item's blocks when the next item comes (or at the end), then the metrics.
 */
export class MarkdownWriter {
  private readonly blocks: string[];
  private section: "user" | "assistant" | undefined;
  private separator = "";
  private readonly reasoning: boolean;
  private readonly tools: boolean;
  private readonly requests: boolean;
  private readonly errors: boolean;

  constructor(
    meta: TranscriptMeta,
    private readonly options: MarkdownOptions,
    /** `$name` in action responses reads as on the page: the value's text form once known. */
    private readonly variables: ReadonlyMap<string, unknown>,
  ) {
    const { reasoning = true, tools = true, requests = false, errors = true } = options;
    this.reasoning = reasoning;
    this.tools = tools;
    this.requests = requests;
    this.errors = errors;
    this.blocks = [`# ${oneLine(meta.title)}`, describeMeta(meta)];
    if (options.summary !== undefined) this.blocks.push(summaryLine(options.summary));
  }

  *item(item: MarkdownItem): Generator<string> {
    yield* this.flush();
    const { blocks } = this;
    if (item.kind === "request") {
      if (!this.requests) return;
      const { record } = item;
      blocks.push(
        `### Request · turn ${record.turn} · ${record.provider}/${record.model}`,
        fenced(prettyJson({ messages: record.messages, settings: record.settings }), "json"),
      );
      return;
    }
    const { event } = item;
    switch (event.type) {
      case "user":
        blocks.push("## User", event.content);
        this.section = "user";
        break;
      case "think":
        if (!this.reasoning || event.content.trim() === "") break;
        this.assistant();
        blocks.push(quote(`**Reasoning**\n\n${event.content}`));
        break;
      case "respond":
        if (event.content.trim() === "") break;
        this.assistant();
        blocks.push(
          this.variables.size === 0
            ? event.content
            : resolveText(event.content, this.variables).text,
        );
        break;
      case "call":
        if (!this.tools) break;
        this.assistant();
        blocks.push(...callBlocks(event, item.result));
        break;
      case "result":
        // Results follow their call; one without a call answers a malformed call block.
        if (!this.tools || item.answered === true) break;
        this.assistant();
        blocks.push(...resultBlocks("Malformed call", event));
        break;
      case "error":
        if (!this.errors) break;
        blocks.push(quote(`**Error** \`${event.code}\`: ${event.message}`));
        break;
      case "interrupt":
        if (this.errors) blocks.push(quote(`**Interrupted** (${event.reason})`));
        break;
      case "execute":
      case "end":
      case "metric":
        break;
      default:
        assertNever(event, "event");
    }
  }

  *end(): Generator<string> {
    const { summary } = this.options;
    if (summary !== undefined && summary.turns > 0) this.blocks.push(perTurnMarkdown(summary));
    yield* this.flush();
    yield "\n";
  }

  private assistant(): void {
    if (this.section !== "assistant") this.blocks.push("## Assistant");
    this.section = "assistant";
  }

  private *flush(): Generator<string> {
    if (this.blocks.length === 0) return;
    yield `${this.separator}${this.blocks.join("\n\n")}`;
    this.separator = "\n\n";
    this.blocks.length = 0;
  }
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
