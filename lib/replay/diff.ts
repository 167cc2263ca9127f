import type { ProtocolEvent } from "../protocol/events";
import { mergePieces } from "../protocol/merge";

/** A difference between what the parser produced live and what the current parser produces. */
export interface ReplayDiff {
  turn: number;
  /** The event id (ids come from the parser's counter, so they line up across versions). */
  id: string;
  kind: "missing" | "extra" | "changed";
  /** Merged (pieces joined); absent for `extra`. */
  recorded?: ProtocolEvent;
  /** Merged; absent for `missing`. */
  reparsed?: ProtocolEvent;
  /** For `changed`: the fields that differ (`content`, `span`, `call`, `code`, …). */
  fields?: string[];
}

/**
 * Fields that do not count as a difference: `id` is the key, `timestamp` comes from the
 * clock, and an error's `message` is wording (its `code`, `span` and `raw` still count).
 */
const IGNORED = new Set(["id", "timestamp", "message"]);

/** Differences of one turn, pieces merged by id: recorded order first, then extras. */
export function diffTurn(
  turn: number,
  recorded: readonly ProtocolEvent[],
  reparsed: readonly ProtocolEvent[],
): ReplayDiff[] {
  const before = mergePieces(recorded);
  const after = mergePieces(reparsed);
  const byId = new Map(after.map((event) => [event.id, event]));
  const diffs: ReplayDiff[] = [];
  for (const event of before) {
    const match = byId.get(event.id);
    byId.delete(event.id);
    if (match === undefined) {
      diffs.push({ turn, id: event.id, kind: "missing", recorded: event });
      continue;
    }
    const fields = differentFields(event, match);
    if (fields.length > 0)
      diffs.push({ turn, id: event.id, kind: "changed", recorded: event, reparsed: match, fields });
  }
  for (const event of byId.values())
    diffs.push({ turn, id: event.id, kind: "extra", reparsed: event });
  return diffs;
}

function differentFields(a: ProtocolEvent, b: ProtocolEvent): string[] {
  const left = a as unknown as Record<string, unknown>;
  const right = b as unknown as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  return [...keys].filter((key) => !IGNORED.has(key) && !sameValue(left[key], right[key])).sort();
}

/** Structural equality with JSON semantics: key order does not matter, `undefined` = absent. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameValue(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameValue(left[key], right[key])) return false;
  return true;
}
