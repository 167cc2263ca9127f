export {
  createReplayClock,
  MAX_SPEED,
  MIN_SPEED,
  REPLAY_SPEEDS,
  type ReplayClock,
  type ReplayClockOptions,
  type ReplayClockState,
  type ReplaySpeed,
  systemTimers,
  type TimerHost,
} from "./clock";
export { ReplayCursor, type ReplayFrame, type StepUnit } from "./cursor";
export { diffTurn, type ReplayDiff, sameValue } from "./diff";
export { isParserEvent } from "./parser-events";
export { type ReplayResult, replayRecords } from "./replay";
export { createReplayModel, REPLAY_PROVIDER, type ReplayModelOptions } from "./replay-model";
export { findTurn, type RecordedTurn, type ReplaySource, replaySourceOf } from "./replay-source";
export { buildTimeline, type TimedRecord, type TimelineOptions } from "./timeline";
