/**
 * The storage contract for transcripts, their records (docs/transcript-file.md, docs/http-api.md) and relic key-values.
 * Every method is async so a networked database (PostgreSQL) can implement it unchanged;
 * `sqlite-store.ts` and `memory-store.ts` both pass `store-conformance.ts`.
 */
import type { Dialect, DialectDefinition } from "../protocol";
import type { TranscriptRecord } from "../protocol/records";
import type {
  LiveRunInfo,
  RunBatchResult,
  RunClaim,
  RunClaimResult,
  RunInfo,
  RunRecordBatch,
} from "./run-types";
import type { SearchMatch } from "./search-text";

/** Milliseconds since the epoch. Injected so tests control time (expiry, ordering). */
export type Clock = () => number;

export interface ModelRef {
  provider: string;
  id: string;
}

/**
 * Where a transcript came from (docs/capture-proxy.md): a run in this app, an imported file, or an
 * agent's traffic recorded by the capture proxy.
 */
export type TranscriptSource = "playground" | "import" | "capture";
export const TRANSCRIPT_SOURCES = [
  "playground",
  "import",
  "capture",
] as const satisfies readonly TranscriptSource[];

export interface TranscriptMeta {
  id: string;
  title: string;
  /** ms since epoch. */
  createdAt: number;
  /** ms since epoch: the last append, rename or creation. */
  updatedAt: number;
  dialect: Dialect;
  model: ModelRef;
  system: string;
  tools: string[];
  source: TranscriptSource;
  /** The transcript this one was forked from. */
  parentId?: string;
  /** The parent's `seq` the fork was taken after. */
  forkPoint?: number;
  /** A user-defined dialect (docs/dialects/custom.md); `dialect` is then its family's built-in. */
  definition?: DialectDefinition;
}

export interface CreateTranscriptInput {
  /** Generated with the store's id source when absent. */
  id?: string;
  /** Defaults to `DEFAULT_TITLE`. */
  title?: string;
  dialect: Dialect;
  model: ModelRef;
  system?: string;
  tools?: string[];
  /** Defaults to `"playground"`. */
  source?: TranscriptSource;
  parentId?: string;
  forkPoint?: number;
  definition?: DialectDefinition;
  /**
   * The server instance writing this transcript as an import (`beginImport`, lib/transcripts):
   * it is created hidden (deleted), and until `restoreTranscript` shows it
   * `claimAbandonedImports` gives it up for purging once that instance's lease has ended (a
   * server that died mid-import). A transcript restored once is never given up again: one the
   * user deletes later is theirs to restore.
   */
  importInstance?: string;
}

export const DEFAULT_TITLE = "Untitled";

export type {
  ChunkRecord,
  EventRecord,
  RecordKind,
  RequestRecord,
  TranscriptRecord,
} from "../protocol/records";

/** Where a record sits: `seq` counts from 1 per transcript with no gaps. */
export interface RecordPosition {
  seq: number;
  runId: string;
}

export type StoredRecord = TranscriptRecord & RecordPosition;

export interface Transcript {
  meta: TranscriptMeta;
  records: StoredRecord[];
}

export type TranscriptSummary = Omit<TranscriptMeta, "system" | "tools"> & {
  /** Number of records, which is also the last `seq`. */
  recordCount: number;
  /** With a query that matched what was said, not the title: the match in context. */
  match?: SearchMatch;
};

export interface ListOptions {
  /** Case-insensitive substring of the title or of any user/respond content. */
  query?: string;
  /** Defaults to `DEFAULT_LIST_LIMIT`, at most `MAX_LIST_LIMIT`. */
  limit?: number;
  offset?: number;
  /** Only transcripts from this source. */
  source?: TranscriptSource;
}

export const DEFAULT_LIST_LIMIT = 50;
export const MAX_LIST_LIMIT = 500;

export type {
  LiveRunInfo,
  RunBatchResult,
  RunClaim,
  RunClaimResult,
  RunInfo,
  RunRecordBatch,
} from "./run-types";

/** Which records `readRecords` returns: a range of `seq`, capped by `limit`. */
export interface RecordPageOptions {
  /** Only records with `seq > after` (default 0). */
  after?: number;
  /** Only records with `seq < before` (default: no bound). */
  before?: number;
  /** At most this many records (1 … `MAX_RECORD_PAGE`). */
  limit: number;
  /** `"end"`: the last `limit` records of the range (a tail); default `"start"`, the first. */
  from?: "start" | "end";
}

export const MAX_RECORD_PAGE = 10_000;

/**
 * A run of a transcript's records as replay times them (`lib/replay/timeline.ts` `runStarts`):
 * records in a row with one `runId`, from a user message (one without `parent`) or from where
 * the `runId` changes. Runs whose records interleave (calls made at the same time) are each
 * several of these.
 */
export interface TranscriptRun {
  runId: string;
  firstSeq: number;
  lastSeq: number;
  records: number;
  /** Its first record is a user message: that message's timestamp; else null. */
  startedAt: number | null;
  /** The greatest `t` of its chunks and requests; null when it has none. */
  lastT: number | null;
  /**
   * Its events after its last chunk or request (every event when it has none), one entry per
   * type, error code and span (or none), with the latest timestamp among them; ordered.
   */
  tail: RunTailEvents[];
}

export interface RunTailEvents {
  type: string;
  code?: string;
  /** Whether these events have a `span` (the parser's do; the runtime's `end` does not). */
  span: boolean;
  /** The greatest `timestamp`. */
  at: number;
}

export interface RecordPage {
  meta: TranscriptMeta;
  /** In `seq` order, whichever end the page was taken from. */
  records: StoredRecord[];
  /** Every record of the transcript, which is also its last `seq`. */
  recordCount: number;
}

/** Which records `readRecordPages` walks through: `after < seq ≤ through`. */
export interface RecordPagesOptions {
  /** Only records with `seq > after` (default 0). */
  after?: number;
  /**
   * Only records with `seq ≤ through` (default: the last record when the walk starts), so two
   * walks of a transcript a run is still appending to see the same records.
   */
  through?: number;
  /** Records per page (1 … `MAX_RECORD_PAGE`, default `DEFAULT_RECORD_PAGES_SIZE`). */
  pageSize?: number;
}

export const DEFAULT_RECORD_PAGES_SIZE = 1000;

export interface Store {
  createTranscript(input: CreateTranscriptInput): Promise<TranscriptMeta>;
  /** `null` when unknown or deleted. */
  getTranscript(id: string): Promise<Transcript | null>;
  /** A page of a transcript's records; `null` when unknown or deleted. */
  readRecords(id: string, options: RecordPageOptions): Promise<RecordPage | null>;
  /**
   * A transcript's records a page at a time, in `seq` order, each page read when the consumer
   * asks for it: a whole transcript never held at once. Requests share their message values
   * with the recent requests of earlier pages, as requests read in one call do. Rejects (at
   * the first page, or later) with `not_found` once the transcript is unknown or deleted.
   */
  readRecordPages(id: string, options?: RecordPagesOptions): AsyncIterable<StoredRecord[]>;
  /**
   * What continuing a conversation needs, without its raw chunks or assembled requests: every
   * `event` record, plus the one chunk or request record with the highest turn (so the next
   * turn number follows), in `seq` order. `null` when unknown or deleted.
   */
  getConversation(id: string): Promise<Transcript | null>;
  /**
   * The transcript's runs in `seq` order (`TranscriptRun`), worked out by the database from
   * every record without sending them (replay knows a long transcript's length before reading
   * it). `null` when unknown or deleted.
   */
  listTranscriptRuns(id: string): Promise<TranscriptRun[] | null>;
  /** Live transcripts, most recently updated first. */
  listTranscripts(options?: ListOptions): Promise<TranscriptSummary[]>;
  /** `null` when unknown or deleted. */
  renameTranscript(id: string, title: string): Promise<TranscriptMeta | null>;
  /** Soft delete: hidden from get and list until restored. `false` when not live. */
  deleteTranscript(id: string): Promise<boolean>;
  /** Undoes `deleteTranscript`. `false` when unknown or not deleted. */
  restoreTranscript(id: string): Promise<boolean>;
  /**
   * Removes a deleted transcript and everything stored under it, for good: an import refused
   * part-way (hidden until it finished, never shown), whose records would otherwise stay on
   * disk. A few thousand records at a time, so other requests are served meanwhile. `false`
   * when unknown or not deleted: a live transcript is never purged.
   */
  purgeTranscript(id: string): Promise<boolean>;
  /**
   * Imports cut off by their server's death: hidden transcripts created with an
   * `importInstance` whose lease has ended at `now` (or was never written), never restored.
   * Marks each as being purged (as `purgeTranscript` first does, in the same statement as the
   * lease check, so a writer that comes back cannot show it) and returns their ids, with those
   * a purge marked before and did not finish, for `purgeTranscript` to remove. Never the
   * imports of `except`, the instance asking: alive, whatever its lease says (it may have
   * stalled past it, a laptop asleep, and not renewed it yet).
   */
  claimAbandonedImports(now: number, except?: string): Promise<string[]>;
  /**
   * Appends in order, all or nothing, committed before the promise settles. Allowed on a
   * deleted transcript (a run may still be streaming into it), rejected for an unknown one.
   */
  appendRecords(
    transcriptId: string,
    runId: string,
    records: readonly TranscriptRecord[],
  ): Promise<StoredRecord[]>;
  /**
   * Appends several runs' records at once (a server groups the records of every live run
   * that arrived within a few ms). Each batch is all or nothing on its own; the call commits
   * once, before the promise settles. Rejects only when nothing could be committed.
   */
  appendRunRecords(batches: readonly RunRecordBatch[]): Promise<RunBatchResult[]>;
  /** Notes that a run started (its transcript must exist). */
  recordRunStart(run: Omit<RunInfo, "endedAt" | "stopRequestedAt">): Promise<void>;
  /** Notes that a run finished; a no-op for an unknown or already finished run. */
  recordRunEnd(runId: string, endedAt: number): Promise<void>;
  /** `null` when unknown. */
  getRunInfo(runId: string): Promise<RunInfo | null>;
  /** Runs started and never finished, oldest first: in flight, or cut off by a crash. */
  listUnfinishedRuns(): Promise<RunInfo[]>;
  /** The records `runId` wrote to `transcriptId`, in order, skipping the first `after`. */
  listRunRecords(transcriptId: string, runId: string, after: number): Promise<StoredRecord[]>;
  /**
   * Notes a run's start for a named instance (see `RunClaim`). Rejects like `recordRunStart`
   * (`not_found`, `conflict` for a run id used twice); a busy transcript is a result, not an error.
   */
  claimRun(claim: RunClaim): Promise<RunClaimResult>;
  /** Keeps an instance alive until `expiresAt` (ms since epoch); it is gone from then on. */
  renewLease(instanceId: string, expiresAt: number): Promise<void>;
  /**
   * Optional: when the lease `renewLease` last gave `instanceId` ends (ms since epoch); `null`
   * when it never had one. The server also keeps "watched from another instance" marks as
   * leases (`watch:<runId>`, lib/server/run-watch.ts).
   */
  leaseUntil?(instanceId: string): Promise<number | null>;
  /**
   * Optional: drops the leases that ended before `before` (ms since epoch), and answers how many.
   * A lease never written counts as ended everywhere, so this changes no answer about them; it
   * keeps the table to the instances and watch marks of about the last `before`.
   */
  forgetEndedLeases?(before: number): Promise<number>;
  /**
   * Unfinished runs that no live instance runs at `now`: their instance's lease has expired,
   * or they have none. Oldest first.
   */
  listOrphanedRuns(now: number): Promise<RunInfo[]>;
  /**
   * Makes `instanceId` the run's instance if the run is still orphaned at `now`; false when
   * it is not (finished, or its instance is alive, or another instance adopted it first).
   */
  adoptRun(runId: string, instanceId: string, now: number): Promise<boolean>;
  /**
   * Asks the run's instance to stop it: `"requested"` for the first ask (of two at once, one
   * gets it), `"already"` when a stop was asked for before, `null` when the run is unknown or
   * finished.
   */
  requestRunStop(runId: string, at: number): Promise<"requested" | "already" | null>;
  /** The unfinished runs of `instanceId` that a stop was requested for. */
  listStopRequests(instanceId: string): Promise<string[]>;
  /**
   * The unfinished runs `instanceId` holds (claimed or adopted): a run of its own missing here
   * was taken over by another instance while this one's lease had ended.
   */
  listInstanceRuns(instanceId: string): Promise<string[]>;
  /** Every unfinished run, oldest first, with its instance and record count. */
  listLiveRuns(): Promise<LiveRunInfo[]>;
  /**
   * Optional: calls `listener` with the transcript's id soon after records are appended to it
   * by any instance (PostgreSQL: LISTEN/NOTIFY). Without it, readers poll. Returns the unsubscribe.
   */
  watchAppends?(listener: (transcriptId: string) => void): () => void;
  /** `undefined` when missing or expired. Values round-trip through JSON. */
  relicGet(namespace: string, key: string): Promise<unknown>;
  relicSet(namespace: string, key: string, value: unknown, ttlSeconds?: number): Promise<void>;
  /** `false` when there was no live value. */
  relicDelete(namespace: string, key: string): Promise<boolean>;
  /** Later calls reject. */
  close(): Promise<void>;
}

export interface StoreOptions {
  now?: Clock;
  newId?: () => string;
}

/** The part of `Store` about runs and instances (docs/live-runs.md), which each store keeps in its own file. */
export type StoreRunMethods = Pick<
  Store,
  | "recordRunStart"
  | "claimRun"
  | "renewLease"
  | "leaseUntil"
  | "forgetEndedLeases"
  | "listOrphanedRuns"
  | "adoptRun"
  | "requestRunStop"
  | "listStopRequests"
  | "listInstanceRuns"
  | "listLiveRuns"
  | "recordRunEnd"
  | "getRunInfo"
  | "listUnfinishedRuns"
  | "listRunRecords"
>;
