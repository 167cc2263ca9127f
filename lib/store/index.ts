export { StoreError, type StoreErrorCode } from "./errors";
export { createMemoryStore } from "./memory-store";
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
  type Store,
  type StoredRecord,
  type StoreOptions,
  type Transcript,
  type TranscriptMeta,
  type TranscriptRecord,
  type TranscriptSummary,
} from "./store";
