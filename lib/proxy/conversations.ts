/**
 * Which captured transcript a call belongs to (spec §11): the one named by its
 * `x-wirescope-session` header, else the one whose last request's messages this call's
 * messages extend, else a new one. Kept in memory, bounded (least recently used go first);
 * after a restart, an agent's next call starts a new transcript.
 */
import { createHash } from "node:crypto";
import type { ToolCall } from "../protocol/events";
import type { DialectChoice } from "./dialect-choice";

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
}

export interface Joined {
  conversation: Conversation;
  isNew: boolean;
  /** Index of the first message the transcript has not seen. */
  from: number;
}

/** `hashes[k]` identifies `messages[0..k]`: chained, so each message is hashed once. */
export function prefixHashes(messages: readonly unknown[]): string[] {
  const hashes: string[] = [];
  let previous = "";
  for (const message of messages) {
    previous = createHash("sha256")
      .update(previous)
      .update(JSON.stringify(message) ?? "")
      .digest("base64url");
    hashes.push(previous);
  }
  return hashes;
}

export class Conversations {
  private readonly bySession = new Map<string, Conversation>();
  private readonly byKey = new Map<string, Conversation>();

  constructor(
    private readonly newId: () => string,
    private readonly max = 1000,
  ) {}

  join(session: string | undefined, hashes: readonly string[]): Joined {
    if (session !== undefined) {
      const known = this.bySession.get(session);
      if (known !== undefined) {
        // Not an extension of its last request: only the newest message is news.
        const from = this.extendedFrom(known, hashes) ?? Math.max(0, hashes.length - 1);
        return { conversation: this.touch(this.bySession, session, known), isNew: false, from };
      }
    }
    // The longest earlier request this one extends (it has at least one message more).
    for (let k = hashes.length - 2; k >= 0; k--) {
      const key = hashes[k] as string;
      const known = this.byKey.get(key);
      if (known === undefined || known.key !== key) continue;
      if (session !== undefined) this.remember(this.bySession, session, known);
      return { conversation: known, isNew: false, from: k + 1 };
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
    if (key === undefined) return;
    if (conversation.key !== undefined) this.byKey.delete(conversation.key);
    conversation.key = key;
    this.remember(this.byKey, key, conversation);
  }

  private extendedFrom(conversation: Conversation, hashes: readonly string[]): number | undefined {
    const at = conversation.key === undefined ? -1 : hashes.indexOf(conversation.key);
    return at < 0 ? undefined : at + 1;
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
