import { z } from "zod";

/**
 * A provider or model name: one line, at most `max` characters. Longer ids than any server
 * names (OpenRouter's, a vLLM model path) fit; a 3 MB one did too, and was then stored in the
 * transcript's header and sent with every page of `GET /api/transcripts` and every run record.
 */
export const modelName = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(
      // Control characters, the Unicode line and paragraph separators, and the bidirectional
      // controls, which would make a name shown in the page read as something else.
      /^[^\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]*$/u,
      "must be one line without control characters",
    );

/** `model.provider` of every body that names a model (runs, forks, reruns). */
export const providerName = modelName(64);

/** `model.id` of every body that names a model. */
export const modelId = modelName(256);
