import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import { isPlainObject } from "../protocol/safe-json";

/** One recorded model turn: its raw chunks, and what its request looked like. */
export interface RecordedTurn {
  turn: number;
  chunks: string[];
  /** The first user message of the request's context: the run's task (a sub-agent's own). */
  firstUser: string | undefined;
  /** How many assistant messages the context held: how far into that task the turn was. */
  assistants: number;
}

/** What the `replay` model plays back: a transcript's model output, turn by turn. */
export interface ReplaySource {
  transcriptId: string;
  /** The dialect it was recorded in: a built-in's name or a user-defined definition. */
  dialect: Dialect | DialectDefinition;
  turns: RecordedTurn[];
  /** The conversation's first user message. */
  firstUser: string | undefined;
  /** Answers of `llm` actions (one model call each, not streamed, so kept as their results). */
  llm: { args: Record<string, unknown>; answer: string }[];
}

/** Where a prompt stands: the task it works on and how many model turns it already holds. */
export interface PromptKey {
  firstUser: string | undefined;
  assistants: number;
}

export function replaySourceOf(transcript: {
  meta: ReplayMeta;
  records: Iterable<TranscriptRecord>;
}): ReplaySource {
  const builder = replaySourceBuilder(transcript.meta);
  for (const record of transcript.records) builder.add(record);
  return builder.result();
}

type ReplayMeta = { id: string; dialect: Dialect; definition?: DialectDefinition };

/**
 * `replaySourceOf` a record at a time (records read from store pages): holds the raw chunks,
 * each request's key and the `llm` answers, not the records.
 */
export function replaySourceBuilder(meta: ReplayMeta): {
  add(record: TranscriptRecord): void;
  result(): ReplaySource;
} {
  const turns = new Map<number, RecordedTurn>();
  const turn = (index: number) => {
    let found = turns.get(index);
    if (found === undefined) {
      found = { turn: index, chunks: [], firstUser: undefined, assistants: 0 };
      turns.set(index, found);
    }
    return found;
  };
  const llmCalls = new Map<string, Record<string, unknown>>();
  const llm: ReplaySource["llm"] = [];
  return {
    add(record) {
      if (record.kind === "chunk") turn(record.turn).chunks.push(record.text);
      if (record.kind === "request")
        Object.assign(turn(record.turn), keyOfMessages(record.messages));
      if (record.kind !== "event") return;
      const { event } = record;
      if (event.type === "call" && event.action?.type === "llm")
        llmCalls.set(event.call.id, event.call.args);
      if (event.type !== "result" || event.payload.status !== "success") return;
      const args = llmCalls.get(event.callId);
      if (args !== undefined && typeof event.payload.content === "string")
        llm.push({ args, answer: event.payload.content });
    },
    result() {
      const ordered = [...turns.values()].sort((a, b) => a.turn - b.turn);
      return {
        transcriptId: meta.id,
        dialect: meta.definition ?? meta.dialect,
        turns: ordered,
        firstUser: ordered[0]?.firstUser,
        llm,
      };
    },
  };
}

/**
 * The recorded turn to play for a prompt: the first unused turn made for the same task at the
 * same depth; failing that (the user sent other words), the top-level turn at that depth.
 */
export function findTurn(
  source: ReplaySource,
  key: PromptKey,
  used: ReadonlySet<number>,
): RecordedTurn | undefined {
  const free = source.turns.filter((turn) => !used.has(turn.turn) && turn.chunks.length > 0);
  return (
    free.find((turn) => turn.firstUser === key.firstUser && turn.assistants === key.assistants) ??
    free.find((turn) => turn.firstUser === source.firstUser && turn.assistants === key.assistants)
  );
}

/** The answer an `llm` action got, found by the task text the runtime sent as its prompt. */
export function findLlmAnswer(source: ReplaySource, prompt: string): string | undefined {
  for (const { args, answer } of source.llm) {
    if (JSON.stringify(args, null, 2) === prompt) return answer;
    for (const key of ["prompt", "task", "text", "query"]) {
      const value = args[key];
      if (typeof value === "string" && value.trim() !== "" && prompt.startsWith(value))
        return answer;
    }
  }
  return undefined;
}

/** The key of a recorded request's context (`{ role, content }` messages, docs/http-api.md). */
function keyOfMessages(messages: readonly unknown[]): PromptKey {
  let firstUser: string | undefined;
  let assistants = 0;
  for (const message of messages) {
    if (!isPlainObject(message)) continue;
    if (message.role === "assistant") assistants++;
    if (message.role === "user" && firstUser === undefined && typeof message.content === "string")
      firstUser = message.content;
  }
  return { firstUser, assistants };
}
