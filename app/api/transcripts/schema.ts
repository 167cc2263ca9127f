import { z } from "zod";
import { queryNumber } from "@/app/api/http";
import { MAX_LIST_LIMIT, TRANSCRIPT_SOURCES } from "@/lib/store";

/** `GET /api/transcripts?query=&limit=&offset=&source=` */
export const listQuerySchema = z
  .object({
    // `?query=` searches for nothing: every transcript, as without it.
    query: z
      .string()
      .max(500)
      .transform((text) => (text === "" ? undefined : text))
      .optional(),
    // One less than the store's cap: a page asks for one extra row to know if there is more.
    limit: queryNumber(
      z
        .number()
        .min(1)
        .max(MAX_LIST_LIMIT - 1),
    ).optional(),
    offset: queryNumber(z.number().min(0)).optional(),
    source: z.enum(TRANSCRIPT_SOURCES).optional(),
  })
  .strict();
