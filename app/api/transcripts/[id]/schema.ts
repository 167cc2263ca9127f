import { z } from "zod";
import { queryNumber } from "@/app/api/http";
import { normalizeTitle } from "@/lib/store/meta";
import { MAX_RECORD_PAGE } from "@/lib/store/store";

/** `PATCH /api/transcripts/:id` */
export const renameSchema = z
  .object({
    title: z
      .string()
      .refine((title) => normalizeTitle(title) !== undefined, "must not be empty")
      .pipe(z.string().max(500)),
  })
  .strict();

const seq = (min: number) => queryNumber(z.number().min(min));

/**
 * `GET /api/transcripts/:id?limit=500&after=N&before=M&from=end`: a page of records by `seq`.
 * Without `limit` the whole transcript comes back, as before.
 */
export const pageQuerySchema = z
  .object({
    limit: queryNumber(z.number().min(1).max(MAX_RECORD_PAGE)).optional(),
    after: seq(0).optional(),
    before: seq(1).optional(),
    from: z.enum(["start", "end"]).optional(),
  })
  .strict()
  .refine(
    (query) =>
      query.limit !== undefined ||
      (query.after === undefined && query.before === undefined && query.from === undefined),
    { path: ["limit"], message: "required with after, before or from" },
  );
