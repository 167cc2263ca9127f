import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";
import type { TranscriptRecord } from "../protocol/records";
import type { StoredRecord, TranscriptMeta, TranscriptSource } from "../store/store";
import type { FileSummary } from "./file-summary";

export const TRANSCRIPT_FORMAT = "wirescope-transcript";
export const TRANSCRIPT_VERSION = 1;

/** The first line of a transcript file (docs/transcript-file.md). `created` is ms since the epoch. */
export interface TranscriptHeader {
  format: typeof TRANSCRIPT_FORMAT;
  version: typeof TRANSCRIPT_VERSION;
  id: string;
  title: string;
  created: number;
  dialect: Dialect;
  model: { provider: string; id: string };
  system: string;
  tools: string[];
  /** Where it came from (docs/capture-proxy.md); absent in older files, and for `"playground"`. */
  source?: TranscriptSource;
  parentId?: string;
  forkPoint?: number;
  /** A user-defined dialect (docs/dialects/custom.md): replay re-parses with it; `dialect` is its family's built-in. */
  definition?: DialectDefinition;
  /** The run summary at export (`file-summary.ts`); checked on import, then ignored. */
  summary?: FileSummary;
}

/** A record line: the record, and the run that wrote it when known. */
export type FileRecord = TranscriptRecord & { runId?: string };

/** A transcript as a file holds it: what export writes and import reads. */
export interface TranscriptFile {
  header: TranscriptHeader;
  records: FileRecord[];
}

/** What export needs: a stored transcript (or anything shaped like one). */
export interface ExportableTranscript {
  meta: TranscriptMeta;
  records: readonly (FileRecord | StoredRecord)[];
}

export function headerOf(meta: TranscriptMeta): TranscriptHeader {
  const header: TranscriptHeader = {
    format: TRANSCRIPT_FORMAT,
    version: TRANSCRIPT_VERSION,
    id: meta.id,
    title: meta.title,
    created: meta.createdAt,
    dialect: meta.dialect,
    model: { provider: meta.model.provider, id: meta.model.id },
    system: meta.system,
    tools: [...meta.tools],
  };
  if (meta.source !== "playground") header.source = meta.source;
  if (meta.parentId !== undefined) header.parentId = meta.parentId;
  if (meta.forkPoint !== undefined) header.forkPoint = meta.forkPoint;
  if (meta.definition !== undefined) header.definition = meta.definition;
  return header;
}

/** A record as a file line holds it: the stored position (`seq`) dropped, `runId` kept. */
export function fileRecordOf(record: FileRecord | StoredRecord): FileRecord {
  if (!("seq" in record)) return record;
  const { seq: _seq, ...rest } = record;
  return rest;
}
