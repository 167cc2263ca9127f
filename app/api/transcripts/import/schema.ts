import { z } from "zod";
import { DIALECTS } from "@/lib/protocol/events";

/**
 * `POST /api/transcripts/import?format=&dialect=&title=`. `format=text` reads the body as a
 * model's raw wire text; without it the body is a transcript file (JSONL), validated strictly.
 * `dialect` and `title` apply to raw text only.
 */
export const importQuerySchema = z
  .object({
    format: z.enum(["jsonl", "text"]).optional(),
    dialect: z.enum([...DIALECTS, "auto"]).optional(),
    title: z.string().trim().min(1).max(200).optional(),
  })
  .strict()
  .refine((query) => query.format === "text" || query.dialect === undefined, {
    path: ["dialect"],
    message: "only with format=text (a transcript file names its own dialect)",
  })
  .refine((query) => query.format === "text" || query.title === undefined, {
    path: ["title"],
    message: "only with format=text (a transcript file names its own title)",
  });

export type ImportQuery = z.infer<typeof importQuerySchema>;
