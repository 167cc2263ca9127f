import { z } from "zod";

/** `PATCH /api/transcripts/:id` */
export const renameSchema = z
  .object({
    title: z
      .string()
      .refine((title) => title.trim() !== "", "must not be empty")
      .pipe(z.string().max(500)),
  })
  .strict();
