import type { ResultStatus } from "../protocol/events";

/**
 * The circuit breaker's count of tool results that failed in a row, after one more result.
 * A success resets it. A `skipped` result (a call that never ran: its dependency failed, or the
 * batch was cut off) leaves it as it is: the tool was not at fault, so it does not count as a
 * failure, and nothing succeeded, so it does not break the row either. Otherwise a run whose
 * every action fails, each followed by a skipped dependent, would never trip the breaker.
 */
export function failuresInARow(count: number, status: ResultStatus): number {
  switch (status) {
    case "success":
      return 0;
    case "failure":
      return count + 1;
    case "skipped":
      return count;
    default: {
      const unhandled: never = status;
      throw new Error(`failuresInARow: unknown result status ${String(unhandled)}`);
    }
  }
}
