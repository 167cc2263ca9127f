export { alignTranscripts, type CompareRow, type RowStatus } from "./align";
export { diffEvents, type EventField, type EventPair, eventsDiffer, sameJson } from "./event-diff";
export { type EditBudget, type EditOp, myers } from "./myers";
export { diffText, type Range, TEXT_BUDGET, type TextDiff } from "./text-diff";
export { type CompareTurn, type Exchange, exchangesOf } from "./turns";
