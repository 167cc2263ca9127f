import { z } from "zod";
import { transcriptId } from "@/app/api/http";
import { modelId, providerName } from "@/app/api/model-name";
import { DIALECTS, type Dialect, type DialectDefinition } from "@/lib/protocol";
import { definitionSchema } from "@/lib/protocol/definition-schema";
import type { RunRequest } from "@/lib/server/runs";
import { characterCount, MAX_MESSAGE_CHARS } from "./limits";

const settings = z
  .object({
    temperature: z.number().min(0).max(2),
    topP: z.number().min(0).max(1),
    topK: z.number().int().positive(),
    maxOutputTokens: z.number().int().positive(),
    presencePenalty: z.number(),
    frequencyPenalty: z.number(),
    // Providers take 4 at most; one is kept for the dialect's own (after the execute boundary).
    stopSequences: z.array(z.string().min(1)).max(3),
    seed: z.number().int(),
    paceMs: z.number().min(0).max(2000),
  })
  .partial()
  .strict();

/**
 * A built-in's name, or a user-defined dialect inline (docs/dialects/custom.md). Not a plain union: its
 * error would only say "invalid input", and a definition's must name the bad field
 * (`dialect.think.1: must not be empty`).
 */
const dialect = z.unknown().transform((value, context): Dialect | DialectDefinition => {
  const choices = `one of ${DIALECTS.join(", ")}, or a dialect definition object`;
  if (typeof value === "string") {
    const name = DIALECTS.find((candidate) => candidate === value);
    if (name !== undefined) return name;
    context.addIssue({ code: "custom", message: `must be ${choices}` });
    return z.NEVER;
  }
  // Only an object can be a definition; anything else is told what a dialect is, not a family.
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const message = value === undefined ? `is required: ${choices}` : `must be ${choices}`;
    context.addIssue({ code: "custom", message });
    return z.NEVER;
  }
  const checked = definitionSchema.safeParse(value);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0];
  context.addIssue({
    code: "custom",
    message: issue?.message ?? "not a dialect definition",
    path: issue?.path ?? [],
  });
  return z.NEVER;
});

/** The longest system prompt a run takes, in characters as `characterCount` counts them. */
const MAX_SYSTEM_CHARS = 500_000;

/**
 * At most `limit` characters, counted as a user counts them (`characterCount`: an emoji is
 * one), and said in the same unit: zod's `.max` counts UTF-16 code units, so 150,000 emoji
 * were refused as over 200,000 "characters".
 */
export const atMostCharacters =
  (limit: number) => (text: string, context: z.core.$RefinementCtx<string>) => {
    // Fewer code units than the limit: fewer characters too, without counting.
    if (text.length <= limit) return;
    const count = characterCount(text);
    if (count > limit)
      context.addIssue({
        code: "custom",
        message: `must be at most ${limit.toLocaleString("en-US")} characters; it has ${count.toLocaleString("en-US")}`,
      });
  };

/** The body of `POST /api/runs` (docs/http-api.md). */
export const runRequestSchema = z
  .object({
    message: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .superRefine(atMostCharacters(MAX_MESSAGE_CHARS))
      .optional(),
    dialect,
    model: z
      .object({
        provider: providerName,
        id: modelId.optional(),
        settings: settings.optional(),
      })
      .strict()
      .optional(),
    transcriptId: transcriptId.optional(),
    system: z.string().superRefine(atMostCharacters(MAX_SYSTEM_CHARS)).optional(),
    tools: z.array(z.string()).optional(),
    format: z.enum(["records", "tasksteps"]).optional(),
  })
  .strict()
  // No message continues a transcript where the model owes a turn (a fork; checked by startRun).
  .refine((body) => body.message !== undefined || body.transcriptId !== undefined, {
    path: ["message"],
    message: "Invalid input: expected string, received undefined",
  }) satisfies z.ZodType<RunRequest>;

/** `GET /api/runs?active=1`: only the runs in progress are listed, so `active` must say so. */
export const activeQuerySchema = z.strictObject({
  active: z.literal("1", "must be 1 (only running runs are listed)"),
});

/** `GET /api/runs/:runId/events?after=N`: `after` alone, once (`runEvents` reads the count). */
export const eventsQuerySchema = z.strictObject({ after: z.string().optional() });
