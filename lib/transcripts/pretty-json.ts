import { MAX_JSON_DEPTH, tooDeep } from "../protocol/safe-json";

/** Past this many levels a value is written compactly: indentation would outgrow it. */
export const MAX_INDENTED_DEPTH = 8;
/** Past this many characters too: nobody reads a megabyte of indented JSON. */
export const MAX_INDENTED_LENGTH = 256 * 1024;

/**
 * JSON for people: indented by two spaces while the value nests at most `MAX_INDENTED_DEPTH`
 * levels and is small, compact otherwise. Indentation costs up to two spaces per level on
 * every line, so unbounded it grows with depth × size (an 8 KB record 4,000 levels deep became
 * 32 MB); capped, the output stays within a constant factor of the compact text. A value past
 * `MAX_JSON_DEPTH` (stored before that limit existed) is not written at all: even compact,
 * `JSON.stringify` would recurse once per level.
 */
export function prettyJson(value: unknown): string {
  if (tooDeep(value, MAX_INDENTED_DEPTH) === undefined) {
    const indented = JSON.stringify(value, null, 2) ?? "null";
    if (indented.length <= MAX_INDENTED_LENGTH) return indented;
  }
  if (tooDeep(value) !== undefined)
    return JSON.stringify(`(nested deeper than ${MAX_JSON_DEPTH} levels; not shown)`);
  return JSON.stringify(value) ?? "null";
}
