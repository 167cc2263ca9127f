import { z } from "zod";
import { modelId, providerName } from "@/app/api/model-name";
import { MAX_MESSAGE_CHARS } from "@/app/api/runs/limits";
import { atMostCharacters } from "@/app/api/runs/schema";
import { DIALECTS, type Dialect } from "@/lib/protocol";
import type { ForkRequest } from "@/lib/transcripts/fork";

/** `POST /api/transcripts/:id/fork` */
export const forkSchema = z
  .object({
    at: z.number().int().min(0),
    // Bounded as a run's message is (in characters: an emoji is one).
    editUserMessage: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .superRefine(atMostCharacters(MAX_MESSAGE_CHARS))
      .optional(),
    editResult: z
      .object({
        callId: z.string().min(1),
        content: z.json(),
        status: z.enum(["success", "failure", "skipped"]).optional(),
      })
      .strict()
      .optional(),
    dialect: z.enum(DIALECTS as [Dialect, ...Dialect[]]).optional(),
    model: z.object({ provider: providerName, id: modelId }).strict().optional(),
  })
  .strict() satisfies z.ZodType<ForkRequest>;
