/**
 * The trust boundary for user-written dialects (docs/dialects/custom.md): a definition arriving from a
 * request, a saved file or a transcript header is checked here, with errors that name the
 * field (`think.1: …`). Markers must be usable by the streaming parsers: non-empty, short
 * (a partial marker is all a parser holds back between chunks), one line, no surrounding
 * whitespace, distinct, and none a prefix of another (so a marker is never ambiguous).
 */
import { z } from "zod";
import {
  type CallFields,
  type DelimiterDefinition,
  type DialectDefinition,
  definitionMarkers,
  type HermesDefinition,
  type TagsDefinition,
} from "./definition";

export const MAX_MARKER_LENGTH = 32;
const BUILTIN_NAMES = ["xml", "delimiter", "action", "hermes", "auto"];

/**
 * Characters a marker may not hold: Unicode's control and format characters (C0 and C1
 * controls, zero-width ones, bidi embeddings, overrides, isolates and marks, the byte-order
 * mark; a line break gets its own message first). A model is taught to write the markers: one
 * it cannot see, or one that draws the wire text backwards in every viewer, makes a dialect
 * nobody can read.
 */
const HIDDEN = /[\p{Cc}\p{Cf}]/u;

const marker = z
  .string()
  .min(1, "must not be empty")
  .max(MAX_MARKER_LENGTH, `must be at most ${MAX_MARKER_LENGTH} characters`)
  .refine((text) => text.trim() === text, "must not start or end with whitespace")
  .refine((text) => !/[\r\n]/.test(text), "must be on one line")
  .superRefine((text, context) => {
    const hidden = HIDDEN.exec(text)?.[0];
    if (hidden === undefined) return;
    const code = `U+${(hidden.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
    context.addIssue({
      code: "custom",
      message: `must not hold control, invisible or direction-changing characters (${code})`,
    });
  });
const pair = z.tuple([marker, marker]);
const fieldName = z.string().min(1, "must not be empty").max(64, "must be at most 64 characters");
const fields = z
  .strictObject({ name: fieldName.optional(), args: fieldName.optional() })
  .refine(
    (value) => value.name === undefined || value.args === undefined || value.name !== value.args,
    { message: "name and args must differ", path: ["args"] },
  ) satisfies z.ZodType<CallFields>;
const name = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,39}$/,
    "must be 1–40 lowercase letters, digits, - or _, starting with a letter or digit",
  )
  .refine((text) => !BUILTIN_NAMES.includes(text), "is the name of a built-in dialect");

const tags = z.strictObject({
  name,
  family: z.literal("tags"),
  think: pair,
  batch: pair,
  respond: pair.optional(),
  end: marker.optional(),
  results: pair,
  fields: fields.optional(),
}) satisfies z.ZodType<TagsDefinition>;

const delimiter = z.strictObject({
  name,
  family: z.literal("delimiter"),
  think: marker,
  call: marker,
  execute: marker,
  respond: marker,
  end: marker,
  results: marker,
  fields: fields.optional(),
}) satisfies z.ZodType<DelimiterDefinition>;

const hermes = z.strictObject({
  name,
  family: z.literal("hermes"),
  think: pair,
  call: pair,
  results: pair,
  fields: fields.optional(),
}) satisfies z.ZodType<HermesDefinition>;

export const definitionSchema = z
  .discriminatedUnion("family", [tags, delimiter, hermes], {
    error: 'must be one of "tags", "delimiter", "hermes"',
  })
  .superRefine((definition, context) => {
    const problem = markerProblem(definition) ?? jsonCloseProblem(definition);
    if (problem !== null) context.addIssue({ code: "custom", ...problem });
  }) satisfies z.ZodType<DialectDefinition>;

/**
 * A marker closing a JSON body (a tags batch, a hermes call) that the JSON's own closing brackets
 * could be taken for: the parser looks for it from where the JSON might end, so a marker that
 * starts with brackets (and white space) and goes on as it started (`}}`, `]]`, `} }`) is found
 * inside `{"args": {"path": "."}}` and cuts the call short. `}END` or `]>` are apart from any JSON.
 * Null when the closing markers are.
 */
function jsonCloseProblem(
  definition: DialectDefinition,
): { path: (string | number)[]; message: string } | null {
  const closing =
    definition.family === "tags"
      ? { path: ["batch", 1], text: definition.batch[1] }
      : definition.family === "hermes"
        ? { path: ["call", 1], text: definition.call[1] }
        : null;
  if (closing === null || !closesLikeJson(closing.text)) return null;
  return {
    path: closing.path,
    message: `"${closing.text}" could be the end of the JSON before it: start it with something other than } or ], or follow those with other characters`,
  };
}

/**
 * Whether `marker` can be found starting inside JSON's closing brackets just before it: for
 * some start of brackets and white space `marker[0, d)`, the marker repeats with period `d`
 * (the brackets before it then make a copy that ends inside the real one).
 */
export function closesLikeJson(marker: string): boolean {
  for (let period = 1; period <= marker.length; period++) {
    if (!/^[}\]\s]+$/.test(marker.slice(0, period))) return false;
    let repeats = true;
    for (let at = period; at < marker.length && repeats; at++)
      repeats = marker[at] === marker[at - period];
    if (repeats) return true;
  }
  return false;
}

/** Two markers that are equal, or one a prefix of the other; null when all are apart. */
export function markerProblem(
  definition: DialectDefinition,
): { path: (string | number)[]; message: string } | null {
  const markers = definitionMarkers(definition);
  for (const [i, a] of markers.entries()) {
    for (const b of markers.slice(i + 1)) {
      const path = b.path.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part));
      if (a.text === b.text)
        return { path, message: `must differ from ${a.path} (both are "${a.text}")` };
      if (a.text.startsWith(b.text) || b.text.startsWith(a.text)) {
        const message = `"${b.text}" and ${a.path} "${a.text}": one is a prefix of the other`;
        return { path, message };
      }
    }
  }
  return null;
}

export type DefinitionCheck =
  | { ok: true; definition: DialectDefinition }
  | { ok: false; error: string };

/** Validates untrusted input as a definition; the error names the first bad field. */
export function parseDefinition(input: unknown, prefix = ""): DefinitionCheck {
  const parsed = definitionSchema.safeParse(input);
  if (parsed.success) return { ok: true, definition: parsed.data };
  const issue = parsed.error.issues[0];
  const path = [prefix, ...(issue?.path ?? []).map(String)].filter((part) => part !== "");
  const where = path.length > 0 ? `${path.join(".")}: ` : "";
  return { ok: false, error: `${where}${issue?.message ?? "invalid dialect definition"}` };
}

/** Every problem of untrusted input as a definition, by dotted path (`think.1`), for a form. */
export function definitionIssues(input: unknown): { path: string; message: string }[] {
  const parsed = definitionSchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({
    path: issue.path.map(String).join("."),
    message: issue.message,
  }));
}
