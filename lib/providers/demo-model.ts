import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { Dialect, DialectDefinition } from "../protocol";
import { definitionTurn } from "./demo-definition";
import { scriptTurn } from "./demo-script";
import { estimatedUsage, inProcessModel, pacedStreamResult } from "./paced-stream";
import { promptJsonLength } from "./prompt-length";
import { createRandom, splitIntoChunks } from "./random";

export const DEMO_PROVIDER = "demo";
export const DEMO_MODEL_ID = "scripted";
export const DEMO_MODEL_LABEL = "Demo (scripted, offline)";

export interface DemoModelOptions {
  /** A built-in dialect, or a user-defined one (spoken through its family's built-in). */
  dialect: Dialect | DialectDefinition;
  /** Wait between text deltas in ms (default 15); 0 streams without waiting. */
  paceMs?: number;
  /** Largest text delta in characters (default 12); sizes vary from 1 up to this. */
  chunkChars?: number;
  /** Chunk sizes come from this; default a fresh PRNG seeded with `seed` for every call. */
  random?: () => number;
  /** Seed of the default PRNG (default 1). */
  seed?: number;
}

/**
 * The built-in offline model (provider `demo`): a scripted `LanguageModelV3` that answers in
 * the dialect's wire text. No network, no key; it follows the rules in CONTEXT.md.
 */
export function createDemoModel(options: DemoModelOptions): LanguageModelV3 {
  const { dialect, paceMs = 15, chunkChars = 12, seed = 1 } = options;
  const script = (prompt: LanguageModelV3CallOptions["prompt"]) =>
    typeof dialect === "string" ? scriptTurn(dialect, prompt) : definitionTurn(dialect, prompt);
  return inProcessModel({
    specificationVersion: "v3",
    provider: DEMO_PROVIDER,
    modelId: DEMO_MODEL_ID,
    supportedUrls: {},
    async doGenerate(call: LanguageModelV3CallOptions) {
      const text = script(call.prompt);
      return {
        content: [{ type: "text", text }],
        finishReason: { unified: "stop", raw: "stop" },
        usage: estimatedUsage(promptJsonLength(call.prompt), text),
        response: { modelId: DEMO_MODEL_ID },
        warnings: [],
      };
    },
    async doStream(call: LanguageModelV3CallOptions) {
      const text = script(call.prompt);
      const random = options.random ?? createRandom(seed);
      const chunks = splitIntoChunks(text, chunkChars, random);
      // The web stream is made only if asked for (the AI SDK); the runtime reads the parts.
      return pacedStreamResult(chunks, {
        paceMs,
        signal: call.abortSignal,
        usage: estimatedUsage(promptJsonLength(call.prompt), text),
        name: "demo model",
        response: { id: "demo-0", modelId: DEMO_MODEL_ID },
      });
    },
  });
}
