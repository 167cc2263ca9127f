export { parseAttributes } from "./action";
export {
  BUILTIN_DEFINITIONS,
  baseDialect,
  type CallFields,
  callFields,
  DELIMITER_DEFINITION,
  type DelimiterDefinition,
  type DialectDefinition,
  type DialectFamily,
  definitionMarkers,
  dialectLabel,
  dialectOf,
  FAMILIES,
  HERMES_DEFINITION,
  type HermesDefinition,
  sameDialect,
  type TagsDefinition,
  XML_DEFINITION,
} from "./definition";
export { DEFAULT_MAX_BLOCK, type ParserOptions } from "./emitter";
export { encodeResults, encodeTurn, type WireResult } from "./encode";
export {
  type ActionMode,
  type ActionSpec,
  type ActionType,
  assertNever,
  type CallEvent,
  DIALECTS,
  type Dialect,
  type EndEvent,
  type ErrorCode,
  type ErrorEvent,
  EVENT_TYPES,
  type EventOf,
  type EventType,
  type ExecuteEvent,
  INTERRUPT_REASONS,
  type InterruptEvent,
  type InterruptReason,
  type MetricEvent,
  type MetricTokenSource,
  type OnError,
  type ParserErrorCode,
  PERSISTED,
  type ProtocolEvent,
  type RespondEvent,
  type ResultEvent,
  type ResultPayload,
  type ResultStatus,
  type RuntimeErrorCode,
  type Span,
  type ThinkEvent,
  type TokenStep,
  type ToolCall,
  type UserEvent,
} from "./events";
export { mergePieces } from "./merge";
export { createParser, type DialectSpec, parseAll } from "./parser";
export type {
  ChunkRecord,
  EventRecord,
  RecordKind,
  RequestRecord,
  TranscriptRecord,
} from "./records";
export { type JsonResult, safeParseJson } from "./safe-json";
export type { Parser } from "./scanner";
export { createUtf8Decoder, parserStream, utf8DecoderStream } from "./stream";
export { MAX_WAITING, ThinkWriter } from "./think-writer";
export {
  afterReasoning,
  guardReasoning,
  type NativeCall,
  nativeCallsText,
  ReasoningGuard,
  thinkMarkers,
} from "./written-back";
