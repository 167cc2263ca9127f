import { assertNever } from "../protocol";
import { firstFile, type ResultItem } from "./demo-results";
import type { FollowUp, PlannedCall } from "./demo-rules";

/**
 * The later steps of a multi-step plan: what to call next, read from the previous step's
 * results. Pure. `null` as the call means the step cannot go on (the reason says why).
 */
export interface NextStep {
  reason: string;
  call: PlannedCall | null;
}

export function nextStep(step: FollowUp, items: readonly ResultItem[]): NextStep {
  switch (step) {
    case "read_listed": {
      const listed = successOf(items, "list");
      const file = listed === undefined ? null : firstFile(listed.content);
      if (file === null) return { reason: "`list` found no file to read.", call: null };
      return {
        reason: `\`list\` found ${file}; step 2 of 2: I'll \`read\` it.`,
        call: { name: "read", args: { file } },
      };
    }
    case "edit_found": {
      const found = successOf(items, "search");
      const match = found === undefined ? null : firstMatch(found.content);
      if (match === null) return { reason: "`search` found nothing to edit.", call: null };
      return {
        reason: `\`search\` found it in ${match.file} line ${match.line}; step 2 of 2: I'll \`edit\` that line.`,
        call: {
          name: "edit",
          args: { file: match.file, old: match.text, new: edited(match.text) },
        },
      };
    }
    default:
      return assertNever(step, "follow-up step");
  }
}

function successOf(items: readonly ResultItem[], tool: string): ResultItem | undefined {
  return items.find((item) => item.tool === tool && item.status === "success");
}

interface Match {
  file: string;
  line: number;
  text: string;
}

/** The first `file:line: text` of a `search` result (a clipped line loses its "…"). */
function firstMatch(content: unknown): Match | null {
  if (typeof content !== "object" || content === null || !("matches" in content)) return null;
  const { matches } = content;
  const first = Array.isArray(matches) ? matches[0] : undefined;
  if (typeof first !== "string") return null;
  const parsed = /^(.+?):(\d+): (.+)$/.exec(first);
  if (parsed?.[1] === undefined || parsed[2] === undefined || parsed[3] === undefined) return null;
  const text = parsed[3].replace(/…$/, "");
  return text === "" ? null : { file: parsed[1], line: Number(parsed[2]), text };
}

/** A to-do gets ticked; any other line gets a note that the demo touched it. */
function edited(line: string): string {
  return line.includes("- [ ]") ? line.replace("- [ ]", "- [x]") : `${line} (edited by the demo)`;
}
