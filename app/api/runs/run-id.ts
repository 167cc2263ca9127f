import { problem } from "@/app/api/http";

/** Run ids are UUIDs the server makes; 200 characters leaves room without reading kilobytes. */
const MAX_RUN_ID = 200;

/**
 * The `404` for a `:runId` no run can have (too long, or holding a control character), answered
 * before the store is asked: PostgreSQL refuses a NUL in any text it is sent, so such an id
 * asked of it failed the request with a 500 instead of saying there is no such run.
 */
export function impossibleRunId(runId: string): Response | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
  if (runId.length <= MAX_RUN_ID && !/[\u0000-\u001f\u007f-\u009f]/.test(runId)) return null;
  return problem(404, "runId: no such run.");
}
