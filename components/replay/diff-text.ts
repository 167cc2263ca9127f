import type { ProtocolEvent } from "@/lib/protocol";
import type { ReplayDiff } from "@/lib/replay/diff";

const KIND_LABEL: Record<ReplayDiff["kind"], string> = {
  missing: "only in the recording",
  extra: "only in the re-parse",
  changed: "changed",
};

/** "difference" / "differences". */
export function countDiffs(count: number): string {
  return `${count} ${count === 1 ? "difference" : "differences"} from the recorded run`;
}

/** One line for a diff: "turn 2 · call c-3 · changed: content, span". */
export function diffSummary(diff: ReplayDiff): string {
  const event = diff.recorded ?? diff.reparsed;
  const what = event === undefined ? diff.id : `${event.type} ${diff.id}`;
  const fields =
    diff.fields !== undefined && diff.fields.length > 0 ? `: ${diff.fields.join(", ")}` : "";
  return `turn ${diff.turn} · ${what} · ${KIND_LABEL[diff.kind]}${fields}`;
}

const LIMIT = 4_000;

/**
 * The side of a diff as JSON to read: only the differing fields of a changed event (the
 * whole event for a missing or extra one), cut at a few thousand characters.
 */
export function diffSide(event: ProtocolEvent | undefined, fields: readonly string[] | undefined) {
  if (event === undefined) return "—";
  const record = event as unknown as Record<string, unknown>;
  const shown =
    fields === undefined || fields.length === 0
      ? record
      : Object.fromEntries(fields.map((field) => [field, record[field]]));
  const text = JSON.stringify(shown, null, 2) ?? "undefined";
  return text.length > LIMIT
    ? `${text.slice(0, LIMIT)}\n… (${text.length - LIMIT} more characters)`
    : text;
}
