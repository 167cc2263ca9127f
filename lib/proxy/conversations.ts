/**
 * Which captured transcript a call belongs to (docs/capture-proxy.md): the one named by its
 * `x-wirescope-session` header (or the upstream's own conversation a Responses call names), else
 * the one whose turn gave the answer it continues (a Responses `previous_response_id`), else the
 * one whose last request's messages this call's messages extend (or repeat, after that request
 * got no answer: an agent's retry), else a new one. Several conversations can wait on the same
 * request (agents started alike, as an eval runs one task many times): each extension takes one
 * of them, never the same one twice. Kept in memory, bounded (least recently used go first);
 * after a restart, an agent's next call starts a new transcript.
 */
import { createHash } from "node:crypto";
import type { ToolCall } from "../protocol/events";
import { isPlainObject } from "../protocol/safe-json";
import type { DialectChoice } from "./dialect-choice";
import { isReasoningItem } from "./responses-request";

export interface Conversation {
  transcriptId: string;
  /** Set by the first turn that chose a dialect; later turns use it. */
  choice?: DialectChoice;
  /** Whether its transcript has been asked to be created. */
  started: boolean;
  nextTurn: number;
  /** The calls of its latest model turn, which the next results answer. */
  calls: ToolCall[];
  callsTurn?: number;
  /** The upstream ids of that turn's native tool calls, in the order they were written out. */
  nativeIds?: (string | undefined)[];
  /** The chained hash of the latest request's messages. */
  key?: string;
  /**
   * Whether the latest call got no answer the agent could use (an error status, a broken-off
   * answer, the agent hanging up): the same request again is then its retry, not a new agent.
   */
  unanswered?: boolean;
}

export interface Joined {
  conversation: Conversation;
  isNew: boolean;
  /** Index of the first message the transcript has not seen. */
  from: number;
}

/**
 * `hashes[k]` identifies `messages[0..k]`: chained, so each message is hashed once, as it says
 * it (`asSaid`): a message an agent sends again with its cache breakpoint moved, or without the
 * thinking of an earlier answer, is still the same message. A Responses reasoning item adds
 * nothing (its hash is the one before it), as agents may leave earlier ones out.
 */
export function prefixHashes(messages: readonly unknown[]): string[] {
  const hashes: string[] = [];
  let previous = "";
  for (const message of messages) {
    if (isReasoningItem(message)) {
      hashes.push(previous);
      continue;
    }
    previous = createHash("sha256")
      .update(previous)
      .update(JSON.stringify(message, asSaid) ?? "")
      .digest("base64url");
    hashes.push(previous);
  }
  return hashes;
}

/**
 * A message as it says it, without what agents change in a message they send again:
 * `cache_control` (a breakpoint moved to the newest message), Anthropic `thinking` and
 * `redacted_thinking` blocks (which agents may drop from earlier turns, as the API does), and
 * content of one text part read as that text (`[{ "type": "text", "text": "hi" }]` is `"hi"`:
 * a breakpoint turns the newest message's string into such a part, sent as a string later).
 */
function asSaid(key: string, value: unknown): unknown {
  if (key === "cache_control") return undefined;
  if (key !== "content" || !Array.isArray(value)) return value;
  const parts = value.filter(
    (part) =>
      !isPlainObject(part) || (part.type !== "thinking" && part.type !== "redacted_thinking"),
  );
  const [part] = parts;
  if (
    parts.length === 1 &&
    isPlainObject(part) &&
    part.type === "text" &&
    typeof part.text === "string" &&
    Object.keys(part).every(
      (name) => name === "type" || name === "text" || name === "cache_control",
    )
  )
    return part.text;
  return parts;
}

/**
 * Tells conversations waiting on one request apart: whether this call's messages show the
 * conversation's latest answer (the native call ids it wrote, which the agent echoes back).
 */
export type Echoes = (conversation: Conversation) => boolean;

/**
 * A call whose history the upstream keeps, so that every message it sends is news: it names
 * the answer it continues (`answer`: a Responses `previous_response_id`) or the upstream's own
 * conversation it adds to (`thread`: a Responses `conversation`).
 */
export interface Continues {
  answer?: string;
  thread?: string;
}

/** A thread's session key starts with a line break, which no header value holds. */
const THREAD_SESSION = "\nthread ";

/**
 * The longest answer (or thread) id remembered: OpenAI's are about 55 characters; gateways
 * that pack the provider and model into theirs (LiteLLM) stay within a few hundred.
 */
export const MAX_ANSWER_ID_CHARS = 1024;

export class Conversations {
  private readonly bySession = new Map<string, Conversation>();
  /** The conversation whose turn gave each answer id (a Responses `response.id`). */
  private readonly byAnswer = new Map<string, Conversation>();
  /** The conversations whose latest request has this key, in the order they made it. */
  private readonly byKey = new Map<string, Conversation[]>();
  private waiting = 0;

  constructor(
    private readonly newId: () => string,
    private readonly max = 1000,
  ) {}

  /**
   * `continues`: what the upstream keeps of the call's history (its messages are then all
   * news). A conversation the upstream holds (`thread`) is a session, when no header names one.
   */
  join(
    named: string | undefined,
    hashes: readonly string[],
    echoes?: Echoes,
    continues: Continues = {},
  ): Joined {
    const { answer, thread } = continues;
    const kept = answer !== undefined || thread !== undefined;
    const session = named ?? (thread === undefined ? undefined : `${THREAD_SESSION}${thread}`);
    if (session !== undefined) {
      const known = this.bySession.get(session);
      if (known !== undefined) {
        // Not an extension of its last request: only the newest message is news.
        const from = kept
          ? this.continuedFrom(known, hashes)
          : (this.extendedFrom(known, hashes) ?? Math.max(0, hashes.length - 1));
        return { conversation: this.touch(this.bySession, session, known), isNew: false, from };
      }
    }
    const continued = answer === undefined ? undefined : this.byAnswer.get(answer);
    if (continued !== undefined && answer !== undefined) {
      this.touch(this.byAnswer, answer, continued);
      return this.joined(session, continued, this.continuedFrom(continued, hashes));
    }
    // The same request again, after it got no answer: a retry (an SDK's, after a 429).
    const retried = this.waitingOn(
      hashes.at(-1),
      (conversation) => conversation.unanswered === true,
      echoes,
    );
    if (retried !== undefined) return this.joined(session, retried, hashes.length);
    // The longest earlier request this one extends (it has at least one message more).
    for (let k = hashes.length - 2; k >= 0; k--) {
      const known = this.waitingOn(hashes[k], () => true, echoes);
      if (known !== undefined) return this.joined(session, known, k + 1);
    }
    const conversation: Conversation = {
      transcriptId: this.newId(),
      started: false,
      nextTurn: 0,
      calls: [],
    };
    if (session !== undefined) this.remember(this.bySession, session, conversation);
    return { conversation, isNew: true, from: 0 };
  }

  /** This call's messages are now the conversation's latest request. */
  advance(conversation: Conversation, hashes: readonly string[]): void {
    const key = hashes.at(-1);
    // "": messages of reasoning items alone, which say nothing to join by.
    if (key === undefined || key === "") return;
    this.stopWaiting(conversation);
    conversation.key = key;
    conversation.unanswered = undefined;
    const list = this.byKey.get(key) ?? [];
    list.push(conversation);
    // Most recently used last, so the first key is the one to forget.
    this.byKey.delete(key);
    this.byKey.set(key, list);
    this.waiting++;
    while (this.waiting > this.max) {
      const [oldest, first] = this.byKey.entries().next().value ?? [];
      if (oldest === undefined || first === undefined) break;
      first.shift();
      this.waiting--;
      if (first.length === 0) this.byKey.delete(oldest);
    }
  }

  /**
   * The conversation's turn gave the answer `id`: a call naming it continues there. An id
   * longer than any provider's (`MAX_ANSWER_ID_CHARS`) is not kept: the upstream's answer
   * decides its length, and a thousand of them are remembered.
   */
  answered(conversation: Conversation, id: string): void {
    if (id.length > MAX_ANSWER_ID_CHARS) return;
    this.remember(this.byAnswer, id, conversation);
  }

  /**
   * Where the news of a call whose history the upstream keeps start: after the conversation's
   * latest request when the call's messages extend it (an agent that sends its history anyway,
   * as the AI SDK does in an upstream's `conversation`), else at the first; none when it is that
   * request again after it got no answer (a retry). The same messages after an answer are news:
   * the agent said them again.
   */
  private continuedFrom(conversation: Conversation, hashes: readonly string[]): number {
    if (conversation.key === hashes.at(-1))
      return conversation.unanswered === true ? hashes.length : 0;
    const at = conversation.key === undefined ? -1 : hashes.indexOf(conversation.key);
    return at + 1;
  }

  private joined(session: string | undefined, conversation: Conversation, from: number): Joined {
    if (session !== undefined) this.remember(this.bySession, session, conversation);
    return { conversation, isNew: false, from };
  }

  /**
   * A conversation whose latest request has `key` and that `fits`: the one whose answer this
   * call echoes when several wait, else the newest (an agent run again after a run that broke
   * off leaves its old conversation waiting on the same first request).
   */
  private waitingOn(key: string | undefined, fits: (c: Conversation) => boolean, echoes?: Echoes) {
    const list = key === undefined || key === "" ? undefined : this.byKey.get(key)?.filter(fits);
    if (list === undefined || list.length === 0) return undefined;
    if (list.length > 1 && echoes !== undefined) {
      const echoed = list.findLast(echoes);
      if (echoed !== undefined) return echoed;
    }
    return list.at(-1);
  }

  private stopWaiting(conversation: Conversation): void {
    const key = conversation.key;
    const list = key === undefined ? undefined : this.byKey.get(key);
    const at = list?.indexOf(conversation) ?? -1;
    if (list === undefined || at < 0) return;
    list.splice(at, 1);
    this.waiting--;
    if (list.length === 0 && key !== undefined) this.byKey.delete(key);
  }

  private extendedFrom(conversation: Conversation, hashes: readonly string[]): number | undefined {
    const at = conversation.key === undefined ? -1 : hashes.indexOf(conversation.key);
    return at < 0 ? undefined : at + 1;
  }

  /**
   * The dialect already chosen for the conversation a session header names (its transcript's),
   * if any; looked up without reading a request, and without touching its place in the LRU.
   */
  sessionChoice(session: string): DialectChoice | undefined {
    return this.bySession.get(session)?.choice;
  }

  private touch(map: Map<string, Conversation>, key: string, value: Conversation): Conversation {
    map.delete(key);
    map.set(key, value);
    return value;
  }

  private remember(map: Map<string, Conversation>, key: string, value: Conversation): void {
    this.touch(map, key, value);
    while (map.size > this.max) {
      const oldest = map.keys().next().value;
      if (oldest === undefined) break;
      map.delete(oldest);
    }
  }
}
