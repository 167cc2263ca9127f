export { StoreError, type StoreErrorCode } from "./errors";
export { createMemoryStore } from "./memory-store";
export {
  openPostgresStore,
  type PostgresStore,
  type PostgresStoreOptions,
} from "./postgres-store";
export {
  DEFAULT_DB_PATH,
  openSqliteStore,
  type SqliteDiagnostics,
  type SqliteStore,
  type SqliteStoreOptions,
} from "./sqlite-store";
export {
  type ChunkRecord,
  type Clock,
  type CreateTranscriptInput,
  DEFAULT_LIST_LIMIT,
  DEFAULT_TITLE,
  type EventRecord,
  type ListOptions,
  MAX_LIST_LIMIT,
  MAX_RECORD_PAGE,
  type ModelRef,
  type RecordKind,
  type RecordPage,
  type RecordPageOptions,
  type RecordPosition,
  type RequestRecord,
  type RunBatchResult,
  type RunInfo,
  type RunRecordBatch,
  type Store,
  type StoredRecord,
  type StoreOptions,
  TRANSCRIPT_SOURCES,
  type Transcript,
  type TranscriptMeta,
  type TranscriptRecord,
  type TranscriptSource,
  type TranscriptSummary,
} from "./store";
