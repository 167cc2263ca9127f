/** The JSON text form of records and relic values, shared by every store. */
import { safeParseJson } from "../protocol";
import { StoreError } from "./errors";
import type { RecordPosition, StoredRecord, TranscriptRecord } from "./store";

const KINDS: ReadonlySet<string> = new Set<TranscriptRecord["kind"]>(["event", "chunk", "request"]);

/** Checks a record before anything is written, so a bad one fails the whole append. */
export function encodeRecord(record: TranscriptRecord): string {
  if (!KINDS.has(record.kind)) {
    throw new StoreError("invalid", `Unknown record kind ${JSON.stringify(record.kind)}.`);
  }
  try {
    return JSON.stringify(record);
  } catch (error) {
    throw new StoreError("invalid", `A ${record.kind} record is not JSON-serialisable.`, {
      cause: error,
    });
  }
}

/** The body's own `seq`/`runId` (a record copied from another transcript) are overridden. */
export function decodeRecord(body: string, position: RecordPosition): StoredRecord {
  const record = decodeStoredJson(body, `record ${position.seq}`) as TranscriptRecord;
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
