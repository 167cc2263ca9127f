export { estimateMessagesTokens, estimateTokens } from "./estimate";
export { coveredMs, type Interval } from "./intervals";
export {
  type SummaryInput,
  type SummaryOptions,
  summarize,
  summarizeEvents,
  summarizeRecords,
  type TurnText,
} from "./summarize";
export { SummaryPasses, type TurnTally } from "./summary-passes";
export { type CostTerm, combineSources, costTerms, modelName, runCost, turnCost } from "./totals";
export type {
  CallTiming,
  RunCost,
  RunSummary,
  TokenSource,
  TurnCost,
  TurnMetrics,
} from "./types";
