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
 * `GET /api/transcripts/:id?limit=500&after=N&before=M&from=end`: a page of records by `seq`;
 * `runs=1` adds the transcript's runs (`RunSpan`s: what replay needs to know its length).
 * Without `limit` the whole transcript comes back, as before.
 */
export const pageQuerySchema = z
  .object({
    limit: queryNumber(z.number().min(1).max(MAX_RECORD_PAGE)).optional(),
    after: seq(0).optional(),
    before: seq(1).optional(),
    from: z.enum(["start", "end"]).optional(),
    runs: z
      .enum(["0", "1"])
      .transform((value) => value === "1")
      .optional(),
  })
  .strict()
  .refine(
    (query) =>
      query.limit !== undefined ||
      (query.after === undefined &&
        query.before === undefined &&
        query.from === undefined &&
        query.runs === undefined),
    { path: ["limit"], message: "required with after, before, from or runs" },
  );
