import type { DialectDefinition } from "../protocol/definition";
import type { Dialect } from "../protocol/events";

/**
 * What a model writes *after* its turn is over, per dialect: the start of a results block it
 * should never write. A stop sequence is cut from the output, so it must not be a marker the
 * parser needs (`</execute>`, `§execute`): those still arrive and the loop aborts there. The
 * leading newline keeps the sequence from matching inside a call's JSON (a JSON string
 * cannot hold a raw line break), so `"<results>"` as a tool argument is never cut.
 */
export const DIALECT_STOP_SEQUENCES: Readonly<Record<Dialect, readonly string[]>> = {
  xml: ["\n<results>"],
  delimiter: ["\n[SYSTEM:"],
  action: ["\n<results>"],
  // Hermes has no batch marker, so the turn is never cut at a call; but a model that starts
  // writing its own <tool_response> is inventing results.
  hermes: ["\n<tool_response>"],
};

/** The stop sequences of a built-in dialect or a definition: its results opener on a new line. */
export function dialectStopSequences(dialect: Dialect | DialectDefinition): readonly string[] {
  if (typeof dialect === "string") return DIALECT_STOP_SEQUENCES[dialect];
  const opener = typeof dialect.results === "string" ? dialect.results : dialect.results[0];
  return [`\n${opener}`];
}

/** OpenAI accepts at most four stop sequences; the smallest limit of the providers here. */
export const MAX_STOP_SEQUENCES = 4;

/**
 * The stop sequences to send: the user's own first (as given), then the dialect's while
 * there is room. `undefined` when there are none.
 */
export function mergeStopSequences(
  user: readonly string[] | undefined,
  dialect: readonly string[],
): string[] | undefined {
  const merged = [...(user ?? [])];
  for (const sequence of dialect) {
    if (merged.length >= MAX_STOP_SEQUENCES) break;
    if (!merged.includes(sequence)) merged.push(sequence);
  }
  return merged.length === 0 ? undefined : merged;
}
