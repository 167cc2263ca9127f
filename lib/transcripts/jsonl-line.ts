/**
 * One line of a transcript file, validated: the only place a line is checked, for the whole-
 * text parser (`parseJsonl`) and the streamed import (`jsonl-import.ts`) alike.
 */
import { baseDialect } from "../protocol/definition";
import { MAX_JSON_DEPTH, safeParseJson, tooDeep } from "../protocol/safe-json";
import { describeIssue, headerSchema, recordSchema } from "./file-schema";
import type { FileRecord, TranscriptHeader } from "./header";

export type LineResult =
  | { ok: true; kind: "header"; header: TranscriptHeader }
  | { ok: true; kind: "record"; record: FileRecord }
  | { ok: false; message: string };

/**
 * Parses and validates a non-blank line (line ends and limits are the caller's): the header
 * when `expectHeader`, a record otherwise. The value is the JSON as written, not zod's copy
 * (which would reorder keys), so export → import → export is byte-exact.
 */
export function validateLine(line: string, expectHeader: boolean): LineResult {
  const json = safeParseJson(line);
  if (!json.ok) return { ok: false, message: `not valid JSON (${json.error})` };
  // Before the schemas: walking 10,000 levels there would overflow the stack.
  const deep = tooDeep(json.value);
  if (deep !== undefined)
    return {
      ok: false,
      message: `${deep || "record"}: nested deeper than ${MAX_JSON_DEPTH} levels`,
    };
  if (expectHeader) {
    const parsed = headerSchema.safeParse(json.value);
    if (!parsed.success) return { ok: false, message: headerProblem(json.value, parsed.error) };
    const header = json.value as TranscriptHeader;
    const mismatch = definitionMismatch(header);
    if (mismatch !== undefined) return { ok: false, message: mismatch };
    return { ok: true, kind: "header", header };
  }
  const parsed = recordSchema.safeParse(json.value);
  if (!parsed.success) return { ok: false, message: describeIssue(parsed.error) };
  return { ok: true, kind: "record", record: json.value as FileRecord };
}

/** The header's problem, with a plainer word for the two mistakes people actually make. */
function headerProblem(value: unknown, error: Parameters<typeof describeIssue>[0]): string {
  const header = typeof value === "object" && value !== null ? value : {};
  if (!("format" in header) || header.format !== "wirescope-transcript")
    return 'format: expected "wirescope-transcript" (the first line of a Wirescope transcript file)';
  if ("version" in header && header.version !== 1)
    return `version: this file is version ${JSON.stringify(header.version)}; this build reads version 1`;
  return describeIssue(error);
}

/**
 * A custom dialect's transcript names its family's built-in as `dialect` (`xml` for `tags`):
 * what lists, filters and a continued run read. A file naming another (`action` beside a
 * `tags` definition) would be stored saying two things.
 */
function definitionMismatch(header: TranscriptHeader): string | undefined {
  if (header.definition === undefined) return undefined;
  const base = baseDialect(header.definition);
  if (header.dialect === base) return undefined;
  return `dialect: "${header.dialect}" does not go with definition "${header.definition.name}" (family ${header.definition.family}); its transcripts name "${base}"`;
}
