import { z } from "zod";

const flag = z
  .enum(["0", "1", "true", "false"])
  .transform((value) => value === "1" || value === "true");

/**
 * `GET /api/transcripts/:id/export?format=jsonl|markdown|tasksteps|otlp&reasoning=1&tools=1&requests=0&errors=1`;
 * `content=1` puts message content, tool arguments/results and raw wire text in an OTLP export.
 */
export const exportQuerySchema = z
  .object({
    format: z.enum(["jsonl", "markdown", "tasksteps", "otlp"]).default("jsonl"),
    reasoning: flag.optional(),
    tools: flag.optional(),
    requests: flag.optional(),
    errors: flag.optional(),
    content: flag.optional(),
  })
  .strict();
