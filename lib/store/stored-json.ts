/** The JSON text form of records and relic values, shared by every store. */
import { safeParseJson } from "../protocol";
import { StoreError } from "./errors";
import type { RecordPosition, StoredRecord, TranscriptRecord } from "./store";

const KINDS: ReadonlySet<string> = new Set<TranscriptRecord["kind"]>(["event", "chunk", "request"]);

/**
 * A record as it is stored: its JSON, and for a request its messages apart (one JSON text per
 * message, kept in the transcript's message tree, see `message-trie.ts`). The body then holds
 * `"messages":[]` in the same place, so the record's key order survives the round trip.
 */
export interface EncodedRecord {
  body: string;
  /** A request's messages, each as JSON text; absent for other kinds. */
  messages?: string[];
  /** A chunk's or request's turn; absent for events. */
  turn?: number;
}

/**
 * Checks a record before anything is written, so a bad one fails the whole append. `json`:
 * `JSON.stringify(record)` when the caller made it already (it is then not made again).
 */
export function encodeRecord(record: TranscriptRecord, json?: string): EncodedRecord {
  if (!KINDS.has(record.kind)) {
    throw new StoreError("invalid", `Unknown record kind ${JSON.stringify(record.kind)}.`);
  }
  try {
    if (record.kind !== "request" || !Array.isArray(record.messages))
      return {
        body: json ?? JSON.stringify(record),
        ...(record.kind !== "event" && Number.isSafeInteger(record.turn)
          ? { turn: record.turn }
          : {}),
      };
    // `?? "null"`: what JSON.stringify writes for `undefined` inside an array.
    const messages = record.messages.map((message) => JSON.stringify(message) ?? "null");
    const body = JSON.stringify({ ...record, messages: [] });
    return { body, messages, ...(Number.isSafeInteger(record.turn) ? { turn: record.turn } : {}) };
  } catch (error) {
    throw new StoreError("invalid", `A ${record.kind} record is not JSON-serialisable.`, {
      cause: error,
    });
  }
}

/**
 * The body's own `seq`/`runId` (a record copied from another transcript) are overridden.
 * `messages` are a request's messages when they were stored apart.
 */
export function decodeRecord(
  body: string,
  position: RecordPosition,
  messages?: unknown[],
): StoredRecord {
  const record = decodeStoredJson(body, `record ${position.seq}`) as TranscriptRecord;
  if (messages !== undefined && record.kind === "request") record.messages = messages;
  return { ...record, seq: position.seq, runId: position.runId };
}

/** Text this store wrote itself; failing to parse it means the data is damaged. */
export function decodeStoredJson(text: string, what: string): unknown {
  const parsed = safeParseJson(text);
  if (!parsed.ok) {
    throw new StoreError("corrupt", `Stored ${what} is not valid JSON: ${parsed.error}`);
  }
  return parsed.value;
}

/**
 * What an append returns for a request's messages: the values it was given (a new array of
 * them), not a decoding of what was just encoded. Decoding every message of every request
 * again would cost the square of a conversation; reads (`getTranscript`…) decode.
 */
export function givenMessages(record: TranscriptRecord | undefined): unknown[] | undefined {
  return record?.kind === "request" && Array.isArray(record.messages)
    ? [...record.messages]
    : undefined;
}
