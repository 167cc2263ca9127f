/**
 * How the demo model picks tools from the user's text: a few ordered rules, documented as a
 * table in CONTEXT.md. Pure; the first rule that matches wins.
 */
export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

/** A later step of a multi-step plan, worked out from the previous step's results. */
export type FollowUp = "read_listed" | "edit_found";

export interface Plan {
  /** What the think block says: "The user wants …; I'll use …". */
  reason: string;
  calls: PlannedCall[];
  /** Steps after the first, one turn each, in order (`demo-steps.ts`). */
  nextSteps?: FollowUp[];
}

const FILE_TOKEN = /(?:[\w-]+\/)*[\w-]+\.[\w]+|(?:[\w-]+\/)+[\w-]+/;
const OPERATOR_BETWEEN = /[\d)]\s*[-+*/%^]\s*[-\d(]/;
const ARITHMETIC_RUN = /[-\d(][\d\s.+\-*/%^()]*[\d)]/g;

export function planTools(text: string): Plan | null {
  const steps = planSteps(text);
  if (steps !== null) return steps;
  const write = /\bwrite\s+(?:to\s+)?([^\s:]+)\s*:\s*([\s\S]+)$/i.exec(text);
  if (write?.[1] !== undefined && write[2] !== undefined) {
    const file = write[1];
    return {
      reason: `The user wants text written to ${file}; I'll use \`write\`.`,
      calls: [{ name: "write", args: { file, content: write[2].trim() } }],
    };
  }
  const read = /\b(?:read|open|show|cat)\b/i.test(text) ? FILE_TOKEN.exec(text) : null;
  if (read !== null) {
    const file = read[0];
    return {
      reason: `The user wants to see ${file}; I'll use \`read\`.`,
      calls: [{ name: "read", args: { file } }],
    };
  }
  const search = /\b(?:search\s+(?:for\s+)?|find\s+|grep\s+)(.+)$/i.exec(text);
  if (search?.[1] !== undefined) {
    const query = unquote(search[1]);
    if (query !== "") {
      return {
        reason: `The user wants to know where "${query}" appears; I'll use \`search\`.`,
        calls: [{ name: "search", args: { query } }],
      };
    }
  }
  const expression = findExpression(text);
  if (expression !== null) {
    return {
      reason: `The user wants ${expression} worked out; I'll use \`calculate\`.`,
      calls: [{ name: "calculate", args: { expression } }],
    };
  }
  if (/\b(?:list|files|ls)\b|what'?s in\b|what is in\b/i.test(text)) {
    return {
      reason: "The user wants to see the workspace's files; I'll use `list`.",
      calls: [{ name: "list", args: { path: "." } }],
    };
  }
  return null;
}

/** "list the files and read one", "search for X then edit it": two steps, one turn each. */
function planSteps(text: string): Plan | null {
  const listThenRead = /\b(?:list|ls|files)\b.*\b(?:and|then)\b.*\b(?:read|open|show)\b/i;
  if (listThenRead.test(text) && FILE_TOKEN.exec(text) === null) {
    return {
      reason:
        "The user wants the files listed and then one read: first `list`, then `read` of a file it finds.",
      calls: [{ name: "list", args: { path: "." } }],
      nextSteps: ["read_listed"],
    };
  }
  const searchThenEdit =
    /\b(?:search\s+(?:for\s+)?|find\s+|grep\s+)(.+?)\s*,?\s+(?:and\s+)?(?:then\s+)?(?:edit|change|fix|update)\b/i.exec(
      text,
    );
  const query = searchThenEdit?.[1] === undefined ? "" : unquote(searchThenEdit[1]);
  if (query !== "") {
    return {
      reason: `The user wants "${query}" found and then edited: first \`search\`, then \`edit\` of the first match.`,
      calls: [{ name: "search", args: { query } }],
      nextSteps: ["edit_found"],
    };
  }
  return null;
}

/** An arithmetic run with an operator between operands, or the text after "calculate". */
function findExpression(text: string): string | null {
  for (const match of text.matchAll(ARITHMETIC_RUN)) {
    const candidate = match[0].trim();
    if (OPERATOR_BETWEEN.test(candidate)) return candidate;
  }
  const keyword = /\bcalculate\s+(.+)$/i.exec(text);
  if (keyword?.[1] !== undefined) {
    const rest = unquote(keyword[1]);
    if (/\d/.test(rest)) return rest;
  }
  return null;
}

function unquote(text: string): string {
  return text
    .trim()
    .replace(/[?.!]+$/, "")
    .replace(/^["'`](.*)["'`]$/, "$1")
    .trim();
}

/** A request for a long answer: written as Markdown, without tools (`demo-long-answer.ts`). */
export function wantsLongAnswer(text: string): boolean {
  return /\b(?:long|detailed|in detail|explain|explanation|essay|overview|tell me about|how does)\b/i.test(
    text,
  );
}

/** The rule examples the help lists (the scenarios follow them). */
export const EXAMPLE_PROMPTS: readonly string[] = [
  "list the files",
  "read notes/todo.md",
  "search for average",
  "what is 12 * (3 + 4)",
  "write hello.txt: Hello from the demo model",
  "list the files and read one",
  "search for average then edit it",
  "explain the protocol in a long answer",
];
