import { z } from "zod";
import { modelId, providerName } from "@/app/api/model-name";
import { DIALECTS, type Dialect } from "@/lib/protocol";
import type { RerunRequest } from "@/lib/server/rerun";

/** `POST /api/transcripts/:id/rerun` */
export const rerunSchema = z
  .object({
    model: z.object({ provider: providerName, id: modelId.optional() }).strict().optional(),
    dialect: z.enum(DIALECTS as [Dialect, ...Dialect[]]).optional(),
    mode: z.enum(["first", "all"]),
  })
  .strict() satisfies z.ZodType<RerunRequest>;
