/**
 * Request lines that refer to an earlier request instead of repeating its messages, so a
 * transcript file grows with the conversation rather than with its square (a request holds
 * the whole context). A line `{"kind":"request",…,"messages":[tail],"messagesFrom":{"record":
 * 12,"keep":40}}` means: the first 40 messages of record 12 (1-based, counting record lines
 * only), then `tail`. Only the last `REQUEST_WINDOW` requests may be referred to, so a reader
 * holds a bounded number of contexts.
 */
import type { RequestRecord } from "../protocol/records";
import type { FileRecord } from "./header";

export const REQUEST_WINDOW = 16;

export interface MessagesFrom {
  record: number;
  keep: number;
}

/** A request line as a file holds it. */
export type RequestLine = RequestRecord & { runId?: string; messagesFrom?: MessagesFrom };

interface Seen {
  record: number;
  messages: readonly unknown[];
}

/**
 * For export: shortens each request against the earlier request sharing the longest prefix
 * of the very same message values (the store hands back one object per distinct message, so
 * identity is equality here). A request with nothing shared is written whole.
 */
export function requestCompactor(): (
  record: FileRecord,
  number: number,
) => FileRecord | RequestLine {
  const window: Seen[] = [];
  return (record, number) => {
    if (record.kind !== "request") return record;
    let best: Seen | undefined;
    let keep = 0;
    for (let index = window.length - 1; index >= 0; index--) {
      const seen = window[index] as Seen;
      if (seen.messages.length <= keep) continue;
      const shared = sharedPrefix(seen.messages, record.messages);
      if (shared > keep) {
        keep = shared;
        best = seen;
      }
    }
    remember(window, { record: number, messages: record.messages });
    if (best === undefined) return record;
    return {
      ...record,
      messages: record.messages.slice(keep),
      messagesFrom: { record: best.record, keep },
    };
  };
}

export type Resolved = { ok: true; record: FileRecord } | { ok: false; message: string };

/** For import: gives each request line its whole message list back. */
export function requestResolver(): (line: FileRecord | RequestLine, number: number) => Resolved {
  const window: Seen[] = [];
  return (line, number) => {
    if (line.kind !== "request") return { ok: true, record: line };
    const { messagesFrom, ...rest } = line as RequestLine;
    let record: FileRecord = rest;
    if (messagesFrom !== undefined) {
      const from = window.find((seen) => seen.record === messagesFrom.record);
      if (from === undefined)
        return {
          ok: false,
          message: `messagesFrom.record: record ${messagesFrom.record} is not one of the ${REQUEST_WINDOW} requests before this one`,
        };
      if (messagesFrom.keep > from.messages.length)
        return {
          ok: false,
          message: `messagesFrom.keep: record ${messagesFrom.record} has ${from.messages.length} messages, not ${messagesFrom.keep}`,
        };
      record = {
        ...rest,
        messages: [...from.messages.slice(0, messagesFrom.keep), ...rest.messages],
      };
    }
    remember(window, { record: number, messages: (record as RequestRecord).messages });
    return { ok: true, record };
  };
}

function remember(window: Seen[], seen: Seen): void {
  window.push(seen);
  if (window.length > REQUEST_WINDOW) window.shift();
}

function sharedPrefix(a: readonly unknown[], b: readonly unknown[]): number {
  const length = Math.min(a.length, b.length);
  let index = 0;
  while (index < length && a[index] === b[index]) index++;
  return index;
}
