/**
 * The start of the ids of the events the server makes for a run (the user's message, results,
 * `interrupt` and `error` events, the parser's ids under it): event ids are unique within a
 * transcript only through it (docs/events.md), and an import refuses a file whose ids repeat.
 * Its first 8 characters were 32 random bits: a 1,000-run conversation had about one chance in
 * 8,600 that two of its runs shared them, and so event ids. 16 hex digits are ~60 random bits.
 */
export function runTag(runId: string): string {
  return runId.replaceAll("-", "").slice(0, 16);
}
