/** zod schemas for the lines of a transcript file (docs/transcript-file.md): the header, then one record a line. */
import { z } from "zod";
import { definitionSchema } from "../protocol/definition-schema";
import { DIALECTS, type Dialect } from "../protocol/events";
import type { ChunkRecord, EventRecord, RequestRecord } from "../protocol/records";
import { normalizeTitle } from "../store/meta";
import { TRANSCRIPT_SOURCES } from "../store/store";
import { eventSchema } from "./event-schema";
import type { FileRecord, TranscriptHeader } from "./header";

const count = z.number().int().nonnegative();
const notBlank = z.string().refine((text) => text.trim() !== "", "must not be empty");
/** Which run wrote the record; kept so runs stay apart after an import. */
const runId = z.string().min(1).max(200).optional();

export const headerSchema = z.strictObject({
  format: z.literal("wirescope-transcript"),
  version: z.literal(1),
  id: notBlank.pipe(z.string().max(1000)),
  // Nothing visible (zero-width characters only) counts as empty, as in the store.
  title: z
    .string()
    .refine((title) => normalizeTitle(title) !== undefined, "must not be empty")
    .pipe(z.string().max(1000)),
  created: z.number(),
  dialect: z.enum(DIALECTS as [Dialect, ...Dialect[]]),
  model: z.strictObject({ provider: z.string(), id: z.string() }),
  system: z.string(),
  tools: z.array(z.string()),
  source: z.enum(TRANSCRIPT_SOURCES).optional(),
  parentId: z.string().optional(),
  forkPoint: count.optional(),
  definition: definitionSchema.optional(),
  summary: z
    .strictObject({
      turns: count,
      toolCalls: count,
      errors: count,
      durationMs: z.number().nonnegative(),
      tokensIn: count,
      tokensOut: count,
      tokenSource: z.enum(["provider", "estimate", "mixed", "unknown"]),
      cacheRead: count.optional(),
      cacheWrite: count.optional(),
      costUsd: z.number().nonnegative().nullable(),
      unpriced: z.array(z.string().max(1000)).max(1000).optional(),
    })
    .optional(),
}) satisfies z.ZodType<TranscriptHeader>;

const eventRecord = z.strictObject({
  kind: z.literal("event"),
  event: eventSchema,
  runId,
}) satisfies z.ZodType<EventRecord>;

const chunkRecord = z.strictObject({
  kind: z.literal("chunk"),
  turn: count,
  t: z.number(),
  text: z.string(),
  runId,
}) satisfies z.ZodType<ChunkRecord>;

const requestRecord = z.strictObject({
  kind: z.literal("request"),
  turn: count,
  t: z.number(),
  provider: z.string(),
  model: z.string(),
  messages: z.array(z.unknown()),
  settings: z.record(z.string(), z.unknown()),
  runId,
  // The first `keep` messages of an earlier request, then `messages` (request-refs.ts).
  messagesFrom: z.strictObject({ record: z.number().int().positive(), keep: count }).optional(),
}) satisfies z.ZodType<RequestRecord>;

export const recordSchema = z.discriminatedUnion(
  "kind",
  [eventRecord, chunkRecord, requestRecord],
  {
    error: () => 'Invalid option: expected one of "event"|"chunk"|"request"',
  },
) satisfies z.ZodType<FileRecord>;

/** The first problem in words, naming the field: `event.type: Invalid option: …`. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "invalid";
  const field = issue.path.length > 0 ? issue.path.join(".") : "record";
  if (issue.code === "unrecognized_keys")
    return `${field}: unknown field ${issue.keys.map((key) => `"${key}"`).join(", ")}`;
  return `${field}: ${issue.message}`;
}
