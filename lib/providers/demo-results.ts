import { type Dialect, safeParseJson } from "../protocol";
import { isPlainObject } from "../protocol/safe-json";

/** One item of a results message (docs/tools-and-context.md): tool, status, content, and `id` in `action`. */
export interface ResultItem {
  id?: string;
  tool: string;
  status: string;
  content: unknown;
}

export type ReadResults = { ok: true; items: ResultItem[] } | { ok: false; error: string };

/** Whether a user message is a results message of the dialect rather than a person's text. */
export function isResultsMessage(dialect: Dialect, text: string): boolean {
  const trimmed = text.trimStart();
  if (dialect === "hermes") return trimmed.startsWith("<tool_response>");
  return dialect === "delimiter" ? trimmed.startsWith("[SYSTEM:") : trimmed.startsWith("<results>");
}

const TOOL_RESPONSE = /<tool_response>([\s\S]*?)<\/tool_response>/g;

/**
 * Hermes: one `<tool_response>{"name", "content"}</tool_response>` per call. The wire has no
 * status (docs/dialects/hermes.md), so each is read as a success and its content speaks for itself — except the
 * runtime's own `protocol` answer to a malformed call block, which is always a failure.
 */
function readToolResponses(text: string): ReadResults {
  const items: ResultItem[] = [];
  for (const match of text.matchAll(TOOL_RESPONSE)) {
    const parsed = safeParseJson((match[1] ?? "").trim());
    if (!parsed.ok) return { ok: false, error: parsed.error };
    const value = isPlainObject(parsed.value) ? parsed.value : {};
    const tool = typeof value.name === "string" ? value.name : "unknown";
    const status = tool === "protocol" ? "failure" : "success";
    items.push({ tool, status, content: value.content });
  }
  return { ok: true, items };
}

/** Reads the JSON array inside `<results>…</results>` or `[SYSTEM: …]`. Never throws. */
export function readResults(dialect: Dialect, text: string): ReadResults {
  if (dialect === "hermes") return readToolResponses(text);
  const trimmed = text.trim();
  const body =
    dialect === "delimiter"
      ? trimmed.replace(/^\[SYSTEM:/, "").replace(/\]$/, "")
      : trimmed.replace(/^<results>/, "").replace(/<\/results>$/, "");
  const parsed = safeParseJson(body.trim());
  if (!parsed.ok) return { ok: false, error: parsed.error };
  if (!Array.isArray(parsed.value)) return { ok: false, error: "the results are not an array" };
  const items: ResultItem[] = [];
  for (const value of parsed.value) {
    if (!isPlainObject(value)) continue;
    const item: ResultItem = {
      tool: typeof value.tool === "string" ? value.tool : "unknown",
      status: typeof value.status === "string" ? value.status : "unknown",
      content: value.content,
    };
    if (typeof value.id === "string") item.id = value.id;
    items.push(item);
  }
  return { ok: true, items };
}

/** One readable paragraph per result: what came back, or why it failed. */
export function summariseResult(item: ResultItem): string {
  // The error and its failure already say what was wrong; the answer does not repeat it.
  if (item.tool === "protocol" && item.status === "failure")
    return "My call block was malformed, so nothing ran. I need to write it again correctly.";
  if (item.status === "failure") return `\`${item.tool}\` failed: ${asText(item.content)}`;
  if (item.status === "skipped") return `\`${item.tool}\` was skipped: ${asText(item.content)}`;
  const content = item.content;
  switch (item.tool) {
    case "list": {
      const names = entryNames(content);
      if (names.length === 0) return "`list` found no files.";
      return `\`list\` found ${names.length} ${names.length === 1 ? "entry" : "entries"}: ${names.join(", ")}.`;
    }
    case "read": {
      const lines = asText(content).split("\n").slice(0, 3);
      return `\`read\` returned; it begins:\n${lines.map((line) => `> ${line}`).join("\n")}`;
    }
    case "calculate":
      if (isPlainObject(content) && "value" in content) {
        return `\`calculate\`: ${asText(content.expression)} = ${asText(content.value)}.`;
      }
      return `\`calculate\` returned ${asText(content)}.`;
    case "search": {
      const matches =
        isPlainObject(content) && Array.isArray(content.matches) ? content.matches : [];
      if (matches.length === 0) return "`search` found no matches.";
      const first = matches.slice(0, 3).map((match) => `- ${asText(match)}`);
      return `\`search\` found ${matches.length} ${matches.length === 1 ? "match" : "matches"}:\n${first.join("\n")}`;
    }
    case "write":
    case "edit":
      if (isPlainObject(content) && typeof content.file === "string") {
        const where = typeof content.line === "number" ? ` at line ${content.line}` : "";
        const verb = item.tool === "write" ? "wrote" : "changed";
        return `\`${item.tool}\` ${verb} ${content.file}${where}.`;
      }
      return `\`${item.tool}\` succeeded: ${asText(content)}`;
    default:
      return `\`${item.tool}\` succeeded: ${asText(content)}`;
  }
}

/** First file among `list` entries (for the two-turn dependency scenario). */
export function firstFile(content: unknown): string | null {
  if (!isPlainObject(content) || !Array.isArray(content.entries)) return null;
  for (const entry of content.entries) {
    if (isPlainObject(entry) && entry.type === "file" && typeof entry.path === "string") {
      return entry.path;
    }
  }
  return null;
}

function entryNames(content: unknown): string[] {
  if (!isPlainObject(content) || !Array.isArray(content.entries)) return [];
  return content.entries.filter(isPlainObject).map((entry) => {
    const path = asText(entry.path);
    return entry.type === "directory" ? `${path}/` : path;
  });
}

const MAX_QUOTE = 300;

function asText(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
}
