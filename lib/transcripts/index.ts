export {
  type ContinueWith,
  EDITED_OUTCOME,
  type ForkPlan,
  type ForkRequest,
  type ForkResult,
  groupByRun,
  owesTurn,
  planFork,
} from "./fork";
export {
  type ExportableTranscript,
  type FileRecord,
  fileRecordOf,
  headerOf,
  TRANSCRIPT_FORMAT,
  TRANSCRIPT_VERSION,
  type TranscriptFile,
  type TranscriptHeader,
} from "./header";
export {
  DEFAULT_JSONL_LIMITS,
  exceedsUtf8,
  exportJsonl,
  importLimits,
  type JsonlError,
  type JsonlLimits,
  type JsonlResult,
  parseJsonl,
} from "./jsonl";
export { exportMarkdown, fenced, type MarkdownOptions } from "./markdown";
export {
  chooseRawDialect,
  RAW_CHUNK_CHARS,
  type RawDialectChoice,
  RawTextRecords,
  rawRequestRecord,
  rawTextToRecords,
  titleOfText,
} from "./raw-text";
export { TaskStepStream, type TaskStepStreamOptions, toTaskSteps } from "./task-step-stream";
export type {
  StepMetadata,
  StepPart,
  TaskStep,
  TaskStepChunk,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from "./task-step-types";
