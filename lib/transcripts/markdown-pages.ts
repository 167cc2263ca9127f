import { type SummaryOptions, SummaryPasses } from "../metrics/summary-passes";
import type { ActionSpec, ProtocolEvent, ResultEvent } from "../protocol/events";
import { variableValue } from "../runtime/variables";
import { type PagedTranscript, recordsOf } from "../store/paged-transcript";
import type { StoredRecord } from "../store/store";
import { type MarkdownItem, type MarkdownOptions, MarkdownWriter } from "./markdown-render";

/**
 * What the Markdown needs to know of the whole transcript before writing its first block,
 * from one walk (`add` every record in order; records are named by their position in the
 * walk): where each joined think/respond block ends, which result answers which call, and the
 * action dialect's variables. It keeps numbers per block and call, never their text.
 * The rules are `markdown.ts`'s: pieces join by id while the type stays; a result answers the
 * last unanswered call of its id in the same run and turn, then the same run, then any.
 */
export class MarkdownPlan {
  /** A joined block's first piece → its last piece (blocks of one piece are not listed). */
  readonly lastPiece = new Map<number, number>();
  /** A call → the result that answers it. */
  readonly resultOf = new Map<number, number>();
  /** The results that answer a call. */
  readonly answered = new Set<number>();
  readonly variables = new Map<string, unknown>();
  private readonly blocks = new Map<string, { type: string; first: number }>();
  private readonly waiting = new Map<string, { at: number; runId: string; turn: number }[]>();
  private readonly outputs = new Map<
    number,
    { key: string; type: ActionSpec["type"] | undefined }
  >();
  private readonly keys = new Set<string>();
  private position = 0;

  constructor(private readonly action: boolean) {}

  add(record: StoredRecord): void {
    const at = this.position++;
    if (record.kind !== "event" || record.event.parent !== undefined) return;
    const { event } = record;
    if (event.type === "think" || event.type === "respond") {
      const open = this.blocks.get(event.id);
      if (open !== undefined && open.type === event.type) this.lastPiece.set(open.first, at);
      else this.blocks.set(event.id, { type: event.type, first: at });
    } else if (event.type === "call") {
      const calls = this.waiting.get(event.call.id) ?? [];
      calls.push({ at, runId: record.runId, turn: event.turn });
      this.waiting.set(event.call.id, calls);
      const key = event.action?.outputKey;
      if (this.action && key !== undefined && !this.keys.has(key)) {
        this.keys.add(key);
        this.outputs.set(at, { key, type: event.action?.type });
      }
    } else if (event.type === "result") this.pair(event, record.runId, at);
  }

  private pair(event: ResultEvent, runId: string, at: number): void {
    const calls = this.waiting.get(event.callId) ?? [];
    const sameRun = (index: number) => calls[index]?.runId === runId;
    const sameTurn = (index: number) =>
      event.turn === undefined || calls[index]?.turn === event.turn;
    const index = [
      lastIndex(calls.length, (found) => sameRun(found) && sameTurn(found)),
      lastIndex(calls.length, sameRun),
      calls.length - 1,
    ].find((found) => found >= 0);
    const call = index === undefined ? undefined : calls[index];
    if (index === undefined || call === undefined) return;
    calls.splice(index, 1);
    if (calls.length === 0) this.waiting.delete(event.callId);
    this.resultOf.set(call.at, at);
    this.answered.add(at);
    const output = this.outputs.get(call.at);
    if (output === undefined || event.payload.status !== "success") return;
    const { tool, content } = event.payload;
    this.variables.set(output.key, variableValue(output.type, tool, content));
  }
}

function lastIndex(length: number, test: (index: number) => boolean): number {
  for (let index = length - 1; index >= 0; index--) if (test(index)) return index;
  return -1;
}

interface Pending {
  item: MarkdownItem & { kind: "event" };
  ready: boolean;
}

/**
 * `exportMarkdown` of a paged transcript, the same text in the same parts: a walk to plan
 * (`MarkdownPlan`), then a walk that writes. An item waits only until what it shows has been
 * read (a block's last piece, a call's result), and the items after it wait with it, so what
 * is held is the stretch between a call and its result, not the transcript.
 */
export async function* markdownPageParts(
  transcript: PagedTranscript,
  options: MarkdownOptions = {},
  /** Summarize on the way (the planning walk is the summary's first): `options.summary` then. */
  summarize?: SummaryOptions,
): AsyncGenerator<string> {
  const { meta } = transcript;
  const plan = new MarkdownPlan(meta.dialect === "action");
  const passes = summarize === undefined ? undefined : new SummaryPasses(summarize);
  for await (const record of recordsOf(transcript.pages())) {
    plan.add(record);
    passes?.record(record);
  }
  if (passes !== undefined) {
    passes.endFirst();
    for await (const record of recordsOf(transcript.pages()))
      if (record.kind === "event") passes.second(record.event);
  }
  const summary = passes?.result() ?? options.summary;
  const writer = new MarkdownWriter(
    meta,
    { ...options, ...(summary === undefined ? {} : { summary }) },
    plan.variables,
  );
  const queue: (Pending | MarkdownItem)[] = [];
  const blocks = new Map<string, { pending: Pending; first: number }>();
  const calls = new Map<number, Pending>();
  let at = -1;
  for await (const record of recordsOf(transcript.pages())) {
    at++;
    if (record.kind === "request") queue.push({ kind: "request", record });
    if (record.kind === "event" && record.event.parent === undefined) {
      const { event } = record;
      const pending = plannedItem(event, at);
      if (pending !== undefined) queue.push(pending);
    }
    while (queue.length > 0) {
      const head = queue[0] as Pending | MarkdownItem;
      if ("ready" in head && !head.ready) break;
      queue.shift();
      yield* writer.item("ready" in head ? head.item : head);
    }
  }
  for (const head of queue) yield* writer.item("ready" in head ? head.item : head);
  yield* writer.end();

  /** The queue entry of a top-level event, or nothing when it joins an earlier block. */
  function plannedItem(event: ProtocolEvent, at: number): Pending | undefined {
    if (event.type === "think" || event.type === "respond") {
      const open = blocks.get(event.id);
      if (open !== undefined && open.pending.item.event.type === event.type) {
        const joined = open.pending.item.event as typeof event;
        open.pending.item.event = { ...joined, content: joined.content + event.content };
        if (plan.lastPiece.get(open.first) === at) {
          open.pending.ready = true;
          blocks.delete(event.id);
        }
        return undefined;
      }
      const pending = { item: { kind: "event" as const, event: { ...event } }, ready: true };
      if (plan.lastPiece.has(at)) {
        pending.ready = false;
        blocks.set(event.id, { pending, first: at });
      } else blocks.delete(event.id);
      return pending;
    }
    if (event.type === "call") {
      const answer = plan.resultOf.get(at);
      const pending: Pending = { item: { kind: "event", event }, ready: answer === undefined };
      if (answer !== undefined) calls.set(answer, pending);
      return pending;
    }
    if (event.type === "result") {
      const call = calls.get(at);
      if (call !== undefined) {
        call.item.result = event;
        call.ready = true;
        calls.delete(at);
      }
      return { item: { kind: "event", event, answered: plan.answered.has(at) }, ready: true };
    }
    return { item: { kind: "event", event }, ready: true };
  }
}
