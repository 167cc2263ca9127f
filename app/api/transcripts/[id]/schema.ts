import { z } from "zod";
import { normalizeTitle } from "@/lib/store/meta";

/** `PATCH /api/transcripts/:id` */
export const renameSchema = z
  .object({
    title: z
      .string()
      .refine((title) => normalizeTitle(title) !== undefined, "must not be empty")
      .pipe(z.string().max(500)),
  })
  .strict();
