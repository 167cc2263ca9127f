import type { DialectDefinition } from "../protocol/definition";
import { type Dialect, PERSISTED, type ProtocolEvent, type ResultStatus } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import type { ModelRef, StoredRecord, Transcript } from "../store/store";
import type { FileRecord } from "./header";

/** `POST /api/transcripts/:id/fork`: where to fork, and at most one edit. */
export interface ForkRequest {
  /** The `seq` of the source record to fork at (0: before everything). */
  at: number;
  /** Re-ask from a user message: `at` is that message's seq; the fork ends just before it. */
  editUserMessage?: string;
  /** Replace the result of `callId` (at or before `at`) with a mock, then continue. */
  editResult?: { callId: string; content: unknown; status?: ResultStatus };
  /** Continue in another dialect or with another model (the copied records stay as they are). */
  dialect?: Dialect;
  model?: ModelRef;
}

/** The `POST /api/runs` body that continues the fork (without `transcriptId`, added by the route). */
export interface ContinueWith {
  /** The built-in dialect, or the user-defined one the source was recorded in (docs/dialects/custom.md). */
  dialect: Dialect | DialectDefinition;
  model: ModelRef;
  /** Send this as `message` (an edited user message). */
  message?: string;
  /**
   * True when the fork ends where the model owes a turn (after a user message or results):
   * continue with no `message`. False and no `message`: the client must send one.
   */
  resume: boolean;
}

export interface ForkPlan {
  title: string;
  dialect: Dialect;
  /** Kept from the source when the fork stays in its dialect. */
  definition?: DialectDefinition;
  model: ModelRef;
  /** The seq of the source's last copied record. */
  forkPoint: number;
  /** Copied records, the edit applied, each with the run that wrote it. */
  records: FileRecord[];
  continueWith: ContinueWith;
}

export type ForkResult =
  | { ok: true; plan: ForkPlan }
  | { ok: false; field: string; message: string };

export const EDITED_OUTCOME = "Mock result (edited in a fork)";

/**
 * Plans a fork of `source` (pure; the route writes it): copies the records up to the fork
 * point, applies the edit to the copy, and says how to continue. The source is not touched.
 * `source.records` need only reach `at` when `last` (the source's last seq) is given.
 */
export function planFork(
  source: Transcript,
  request: ForkRequest,
  last: number = source.records.at(-1)?.seq ?? 0,
): ForkResult {
  const { at } = request;
  if (!Number.isSafeInteger(at) || at < 0 || at > last)
    return refuse("at", `must be a seq from 0 to ${last}.`);
  if (request.editUserMessage !== undefined && request.editResult !== undefined)
    return refuse("body", "send editUserMessage or editResult, not both.");
  const dialect = request.dialect ?? source.meta.dialect;
  const model = request.model ?? source.meta.model;
  // A fork that keeps the source's dialect keeps a user-defined one too.
  const definition = request.dialect === undefined ? source.meta.definition : undefined;
  const base = {
    title: `${source.meta.title} · fork`,
    dialect,
    model,
    ...(definition === undefined ? {} : { definition }),
  };
  const spec = definition ?? dialect;

  if (request.editUserMessage !== undefined) {
    const target = source.records.find((record) => record.seq === at);
    if (
      target?.kind !== "event" ||
      target.event.type !== "user" ||
      target.event.parent !== undefined
    )
      return refuse(
        "at",
        `seq ${at} is not a user message; fork at the seq of the message to edit.`,
      );
    const records = copy(source.records, at - 1);
    const continueWith = { dialect: spec, model, message: request.editUserMessage, resume: false };
    return { ok: true, plan: { ...base, forkPoint: at - 1, records, continueWith } };
  }

  let records = copy(source.records, at);
  if (request.editResult !== undefined) {
    const edit = request.editResult;
    const index = records.findLastIndex(
      (record) =>
        record.kind === "event" &&
        record.event.type === "result" &&
        record.event.callId === edit.callId,
    );
    const found = records[index];
    if (found?.kind !== "event" || found.event.type !== "result")
      return refuse(
        "editResult.callId",
        `no result for call "${edit.callId}" at or before seq ${at}.`,
      );
    const { payload } = found.event;
    const event: ProtocolEvent = {
      ...found.event,
      payload: {
        ...payload,
        content: edit.content,
        status: edit.status ?? payload.status,
        outcome: EDITED_OUTCOME,
        // Nothing ran: the original's duration would describe a run that did not happen.
        durationMs: 0,
      },
    };
    records = records.with(index, { ...found, event });
  }
  const continueWith = { dialect: spec, model, resume: owesTurn(records) };
  return { ok: true, plan: { ...base, forkPoint: at, records, continueWith } };
}

/**
 * Whether the conversation ends where the model owes a turn: its last top-level conversation
 * event is a user message or a result. Such a transcript can be continued without a message.
 */
export function owesTurn(records: readonly TranscriptRecord[]): boolean {
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index];
    if (record?.kind !== "event") continue;
    const { event } = record;
    if (event.parent !== undefined || !PERSISTED[event.type]) continue;
    return event.type === "user" || event.type === "result";
  }
  return false;
}

/** Records grouped into consecutive runs, for `appendRecords` (one run id per call). */
export function groupByRun(
  records: readonly FileRecord[],
  fallbackRunId: string,
): { runId: string; records: TranscriptRecord[] }[] {
  const groups: { runId: string; records: TranscriptRecord[] }[] = [];
  for (const { runId, ...record } of records) {
    const id = runId ?? fallbackRunId;
    const group = groups.at(-1);
    if (group?.runId === id) group.records.push(record as TranscriptRecord);
    else groups.push({ runId: id, records: [record as TranscriptRecord] });
  }
  return groups;
}

function copy(records: readonly StoredRecord[], upTo: number): FileRecord[] {
  return records.filter((record) => record.seq <= upTo).map(({ seq: _seq, ...rest }) => rest);
}

function refuse(field: string, message: string): ForkResult {
  return { ok: false, field, message };
}
